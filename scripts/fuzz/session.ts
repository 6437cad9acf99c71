/**
 * The inside of `npm run test:fuzz` (scripts/fuzz/run.ts starts it in a loopback-only
 * network namespace): a fresh sandbox, its fixtures, Schemathesis, and the figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadContract } from '../../server/shared/contract.ts';
import { summarize, type Figures } from './figures.ts';

const root = join(import.meta.dirname, '..', '..');
const { values: options } = parseArgs({
  options: {
    'max-examples': { type: 'string', default: '100' },
    workers: { type: 'string', default: '1' },
    'max-time': { type: 'string' },
    seed: { type: 'string' },
    phases: { type: 'string' },
    operation: { type: 'string', multiple: true },
    report: { type: 'string', default: join(root, 'test-results', 'fuzz') },
  },
});

const port = 3000; // the namespace is ours: no other server can hold it
const base = `http://127.0.0.1:${port}`;
const partnerId = randomUUID();
const apiKey = `api_sand:${randomBytes(16).toString('hex')}:${partnerId}`;
const reportDir = resolve(options.report!);
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'ramp-fuzz-'));

function startServer(): ChildProcess {
  const log = createWriteStream(join(reportDir, 'server.log'));
  const server = spawn(process.execPath, [...process.execArgv, join(root, 'server', 'main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      RAMP_ENV: 'sandbox',
      RAMP_DATA_DIR: join(work, 'data'),
      RAMP_SEED_API_KEY: apiKey,
      RAMP_BASE_URL: base,
      RAMP_PRICES_WARMUP_MS: '0',
      // Deliveries to fuzzed URLs fail at once in the namespace; keep their retries short.
      RAMP_WEBHOOK_RETRY_DELAY_MS: '200',
      RAMP_WEBHOOK_TIMEOUT_MS: '1000',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.pipe(log);
  server.stderr!.pipe(log);
  return server;
}

async function waitUntilUp(server: ChildProcess) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the sandbox exited with ${server.exitCode}; see ${join(reportDir, 'server.log')}`);
    try {
      if ((await fetch(`${base}/lookup/country-codes`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the sandbox did not answer within 120 s');
}

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(base + path, {
    method,
    headers: { Authorization: apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json().catch(() => undefined)) as Record<string, any> | undefined;
  if (!response.ok) throw new Error(`fixture ${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json!;
}

/** Organizations the generated requests can name: the partner and approved children of both kinds. */
async function fixtures(): Promise<string[]> {
  const business = await call('POST', '/ramp/organization', { displayName: 'Fuzz business customer', type: 'business' });
  const person = await call('POST', '/ramp/organization', { displayName: 'Fuzz person customer', type: 'personal' });
  await call('POST', `/sandbox/organization/${business.organizationId}/kyb`, { status: 'approved' });
  await call('POST', `/sandbox/organization/${person.organizationId}/kyc`, { status: 'approved' });
  return [partnerId, business.organizationId, person.organizationId];
}

function runSchemathesis(): Promise<number> {
  const config = join(work, 'schemathesis.toml');
  copyFileSync(join(import.meta.dirname, 'schemathesis.toml'), config);
  const args = [
    '--config-file', config, '--no-color',
    'run', join(root, 'generated', 'openapi', 'ramp.yaml'),
    '--url', base,
    '--checks', 'all',
    '--max-examples', options['max-examples']!,
    '--workers', options.workers!,
    '--report', 'junit,ndjson', '--report-dir', reportDir,
    '--request-timeout', '30',
    '--generation-database', 'none',
    // Secrets in the printed failures are for reproducing them locally; the run is throwaway.
    '--output-sanitize', 'false',
  ];
  if (options['max-time']) args.push('--max-time', options['max-time']);
  if (options.seed) args.push('--seed', options.seed);
  if (options.phases) args.push('--phases', options.phases);
  for (const id of options.operation ?? []) args.push('--include-operation-id', id);
  const st = spawn(process.env.RAMP_FUZZ_SCHEMATHESIS!, args, {
    cwd: work,
    stdio: 'inherit',
    env: { ...process.env, RAMP_FUZZ_API_KEY: apiKey, PYTHONUNBUFFERED: '1' },
  });
  return new Promise((resolve) => st.on('exit', (code) => resolve(code ?? 1)));
}

const server = startServer();
let exitCode = 1;
try {
  await waitUntilUp(server);
  const organizations = await fixtures();
  writeFileSync(join(work, 'organizations.dict'), organizations.map((id) => `"${id}"`).join('\n') + '\n');
  const started = Date.now();
  const schemathesisCode = await runSchemathesis();
  const ndjson = readdirSync(reportDir).find((f) => f.endsWith('.ndjson'));
  const serverErrors = readFileSync(join(reportDir, 'server.log'), 'utf8')
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line));
  const figures: Figures = summarize(ndjson ? readFileSync(join(reportDir, ndjson), 'utf8') : '', loadContract().operations);
  figures.seconds = Math.round((Date.now() - started) / 1000);
  figures.serverErrorLogs = serverErrors.length;
  const text = [
    `Schemathesis ${figures.version}: ${figures.operationsTested} of ${figures.operations} operations, ${figures.cases} requests ` +
      `(${figures.negative} with bad inputs, ${figures.positive} valid), ${figures.seconds} s, seed ${figures.seed}`,
    `  by phase: ${Object.entries(figures.byPhase).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    `  responses: ${Object.entries(figures.byStatusClass).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    `  requests per operation: min ${figures.perOperation.min}, median ${figures.perOperation.median}, max ${figures.perOperation.max}`,
    `  check failures: ${figures.failures}; server errors logged: ${figures.serverErrorLogs}`,
    ...serverErrors.slice(0, 5).map((line) => `    ${line.slice(0, 400)}`),
  ].join('\n');
  writeFileSync(join(reportDir, 'summary.json'), JSON.stringify(figures, null, 2) + '\n');
  writeFileSync(join(reportDir, 'summary.txt'), text + '\n');
  console.log(`\n${text}\nreports in ${reportDir}`);
  exitCode = schemathesisCode !== 0 || figures.failures > 0 || serverErrors.length > 0 || (!options.operation && figures.operationsTested < figures.operations) ? 1 : 0;
} catch (error) {
  console.error(error);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
