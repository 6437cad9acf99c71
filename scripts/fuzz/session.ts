/**
 * The inside of `npm run test:fuzz` (scripts/fuzz/run.ts starts it in a loopback-only
 * network namespace): a fresh sandbox, the world it is fuzzed in (world.ts), Schemathesis,
 * and the figures.
 *
 * What it prints: only its own lines, each starting with `fuzz:`. Schemathesis's console
 * output goes to test-results/fuzz/schemathesis.log (its closing `=== … in N s ===` line has
 * the shape of a test runner's, which CI's tally must not read); on a failure the log's tail
 * is printed too.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { JWK } from 'jose';
import { loadContract } from '../../server/shared/contract.ts';
import { selfSignedCertificate, startReceiver, type Receiver } from '../../test/support/webhooks.ts';
import { droppedOf, exceptionsOf, operationsTable, summarize, summaryLines, verdict, warningsOf, type Figures } from './figures.ts';
import { buildWorld, type World } from './world.ts';
import { buildConsole } from '../build-console.mjs';
import { freshPostgresDatabase } from '../../test/support/storage.ts';

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
    'database-url': { type: 'string' },
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
const logFile = join(reportDir, 'schemathesis.log');
/** Every printed line starts with `fuzz:` (a multi-line message, such as a stack, line by line). */
const say = (text: string) => {
  for (const line of text.split('\n')) console.log(`fuzz: ${line}`);
};

function startServer(caFile: string, databaseUrl: string): ChildProcess {
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
      // Deliveries to fuzzed URLs fail at once in the namespace (no host but loopback); keep
      // their retries short. The world's receivers answer at once, given time on a busy machine.
      RAMP_WEBHOOK_RETRY_DELAY_MS: '200',
      RAMP_WEBHOOK_TIMEOUT_MS: '5000',
      // The world's v1 receiver is https on loopback, with a certificate made for this run.
      RAMP_WEBHOOK_CA_FILE: caFile,
      // The world's funded v1 onramps and completed v1 offramps stay so for the whole run
      // (the simulators still move them); by default they would move on within seconds.
      RAMP_V1_DELIVERY_SECONDS: '86400',
      RAMP_V1_REVERSAL_WINDOW_SECONDS: '86400',
      LOG_LEVEL: 'warn',
      // Empty: the embedded SQLite database in RAMP_DATA_DIR.
      DATABASE_URL: databaseUrl,
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
      // Readiness (getHealth): the database is open and migrated.
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the sandbox did not answer within 120 s');
}

/** libFuzzer dictionary lines (Schemathesis `[dictionaries.*] from-file`): one quoted value each. */
const dictionaryFile = (values: string[]) => values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join('\n') + '\n';

/**
 * The run's configuration: scripts/fuzz/schemathesis.toml, which binds parameters to the
 * world's dictionaries by name, plus one `[dictionaries.<name>]` per dictionary the world
 * built. A name the file binds and the world did not build is Schemathesis's configuration
 * error; one the world built and nothing binds is ours.
 */
function writeConfig(world: World): string {
  const template = readFileSync(join(import.meta.dirname, 'schemathesis.toml'), 'utf8');
  const bound = new Set([...template.matchAll(/dictionary\s*=\s*"([^"]+)"/g)].map((m) => m[1]!));
  const unused = Object.keys(world.dictionaries).filter((name) => !bound.has(name));
  if (unused.length > 0) throw new Error(`the world built dictionaries schemathesis.toml does not use: ${unused.join(', ')}`);
  mkdirSync(join(work, 'dictionaries'));
  const declarations: string[] = [];
  for (const [name, values] of Object.entries(world.dictionaries)) {
    writeFileSync(join(work, 'dictionaries', `${name}.dict`), dictionaryFile(values));
    declarations.push(`[dictionaries.${name}]\nfrom-file = "dictionaries/${name}.dict"\n`);
  }
  const config = join(work, 'schemathesis.toml');
  writeFileSync(config, `${template}\n# The world's dictionaries (scripts/fuzz/world.ts), added by session.ts.\n${declarations.join('\n')}`);
  return config;
}

/**
 * The world's requests for hooks.py, which adds them to each operation's explicit examples.
 * Every operation that documents a 2xx needs one, unless scripts/fuzz/README.md names it
 * among the operations without a 2xx: a new operation fails the run until world.ts gives it one.
 */
function writeExamples(world: World, exceptions: Map<string, string>): string {
  const missing = loadContract()
    .operations.filter((o) => o.statuses.some((s) => /^2(\d\d|XX)$/i.test(s)))
    .map((o) => o.operationId)
    .filter((id) => !world.examples[id]?.length && !exceptions.has(id));
  if (missing.length > 0) throw new Error(`world.ts gives no request that succeeds for: ${missing.join(', ')}`);
  const file = join(work, 'examples.json');
  writeFileSync(file, JSON.stringify(world.examples));
  return file;
}

function runSchemathesis(config: string, examples: string, world: World): Promise<number> {
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
    // Secrets in the logged failures are for reproducing them locally; the run is throwaway.
    '--output-sanitize', 'false',
  ];
  if (options['max-time']) args.push('--max-time', options['max-time']);
  if (options.seed) args.push('--seed', options.seed);
  if (options.phases) args.push('--phases', options.phases);
  for (const id of options.operation ?? []) args.push('--include-operation-id', id);
  const log = createWriteStream(logFile);
  const st = spawn(process.env.RAMP_FUZZ_SCHEMATHESIS!, args, {
    cwd: work,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...world.env,
      RAMP_FUZZ_API_KEY: apiKey,
      SCHEMATHESIS_HOOKS: join(import.meta.dirname, 'hooks.py'),
      RAMP_FUZZ_EXAMPLES: examples,
      PYTHONUNBUFFERED: '1',
      COLUMNS: '120',
    },
  });
  st.stdout!.pipe(log);
  st.stderr!.pipe(log);
  return new Promise((resolve) => st.on('exit', (code) => log.end(() => resolve(code ?? 1))));
}

const tail = (text: string, n: number) => text.trimEnd().split('\n').slice(-n);

/**
 * A partner's JWKS on loopback (`PUT /jwt_issuer {jwksUri}`): the key of the partner's issuer
 * once the world has one (`serve`), so registering it keeps the world's JWTs valid.
 */
async function serveJwks(): Promise<{ url: string; server: Server; serve: (key: JWK) => void }> {
  let body = JSON.stringify({ keys: [] });
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const serve = (key: JWK) => (body = JSON.stringify({ keys: [key] }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`, server, serve };
}

/**
 * hooks.py's tests (test_hooks.py), with the pinned Schemathesis, before the hooks take part in
 * a run: what they change of Schemathesis's cases and verdicts must be what they mean to. Their
 * output is printed only when they fail.
 */
function testHooks(): boolean {
  const python = join(dirname(process.env.RAMP_FUZZ_SCHEMATHESIS!), 'python');
  const result = spawnSync(python, [join(import.meta.dirname, 'test_hooks.py')], { encoding: 'utf8', cwd: work });
  if (result.status === 0) return true;
  say(`hooks.py's tests (scripts/fuzz/test_hooks.py) failed:`);
  for (const line of `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`.trimEnd().split('\n')) console.log(`fuzz| ${line}`);
  return false;
}
if (!testHooks()) {
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
}
say("hooks.py's tests hold (scripts/fuzz/test_hooks.py)");

const certificate = selfSignedCertificate();
const receivers: Receiver[] = [await startReceiver(), await startReceiver(() => 200, certificate)];
const [v2Receiver, v1Receiver] = receivers as [Receiver, Receiver];
const jwks = await serveJwks();
// The sandbox console's page and files are operations too (getSandboxConsole,
// getSandboxConsoleAsset): without a build they answer 503.
await buildConsole();
// --database-url: a fresh database on that PostgreSQL server, dropped afterwards. The run's
// namespace has a loopback of its own, so the server is reached through its Unix socket
// (`scripts/postgres.sh socket-url`), which the namespace shares.
const database = options['database-url'] ? await freshPostgresDatabase(options['database-url'], 'ramp_fuzz') : undefined;
if (database) say(`on PostgreSQL: a fresh database, ${new URL(database.url).pathname.slice(1)}`);
const server = startServer(certificate.certFile, database?.url ?? '');
let exitCode = 1;
let printLog = false;
try {
  await waitUntilUp(server);
  const built = Date.now();
  // The assertion pools must outlast the run: its budget, or a generous hour without one.
  const coverSeconds = Number(options['max-time'] ?? 3600) + 300;
  const world = await buildWorld({ base, apiKey, partnerId, receivers: { v2: v2Receiver.url, v1: v1Receiver.url }, coverSeconds, jwksUri: jwks.url, serveJwks: jwks.serve });
  const pools = Object.values(world.counts).reduce((a, b) => a + b, 0);
  say(
    `world: ${Object.keys(world.counts).length} pools of ids and credentials (${pools} values) in ${Math.round((Date.now() - built) / 1000)} s; ` +
      `deliveries received so far: ${v2Receiver.received.length} v2, ${v1Receiver.received.length} v1`,
  );
  // What Schemathesis drew from, for reading its report (a throwaway sandbox's ids and credentials).
  writeFileSync(join(reportDir, 'world.json'), JSON.stringify(world, null, 1) + '\n');
  const exceptions = exceptionsOf(readFileSync(join(import.meta.dirname, 'README.md'), 'utf8'));
  const config = writeConfig(world);
  const examples = writeExamples(world, exceptions);
  const started = Date.now();
  const schemathesisCode = await runSchemathesis(config, examples, world);
  const ndjson = readdirSync(reportDir).find((f) => f.endsWith('.ndjson'));
  const serverErrors = readFileSync(join(reportDir, 'server.log'), 'utf8')
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line));
  const report = ndjson ? createInterface({ input: createReadStream(join(reportDir, ndjson)), crlfDelay: Infinity }) : [];
  const figures: Figures = await summarize(report, loadContract().operations);
  figures.seconds = Math.round((Date.now() - started) / 1000);
  figures.serverErrorLogs = serverErrors.length;
  writeFileSync(join(reportDir, 'operations.txt'), operationsTable(figures.byOperation));

  const result = verdict(figures, exceptions, options.operation ? new Set(options.operation) : undefined);
  const log = readFileSync(logFile, 'utf8');
  const warnings = warningsOf(log);
  const lines = [
    ...summaryLines(figures, result, exceptions, { warnings, serverErrors, dropped: droppedOf(log) }),
    `deliveries received by the world's receivers: ${v2Receiver.received.length} v2, ${v1Receiver.received.length} v1`,
    `reports in ${relative(root, reportDir) || '.'}: operations.txt (2xx/4xx/5xx per operation), schemathesis.log, summary.json, world.json, NDJSON and JUnit`,
  ];
  writeFileSync(join(reportDir, 'summary.json'), JSON.stringify({ ...figures, world: world.counts, warnings }, null, 2) + '\n');
  writeFileSync(join(reportDir, 'summary.txt'), lines.join('\n') + '\n');
  for (const line of lines) say(line);
  // A run of some operations (--operation) leaves the others untested on purpose.
  const untested = options.operation ? 0 : figures.operations - figures.operationsTested;
  exitCode = schemathesisCode !== 0 || figures.failures > 0 || serverErrors.length > 0 || untested > 0 || result.unexcused.length > 0 ? 1 : 0;
  if (exitCode !== 0) {
    say(`failed: Schemathesis exited ${schemathesisCode}, ${figures.failures} check failures, ${serverErrors.length} server errors, ` +
      `${untested} operations untested, ${result.unexcused.length} without a 2xx and not named`);
    printLog = true;
  }
} catch (error) {
  say(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  printLog = true;
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  for (const receiver of receivers) await receiver.close();
  jwks.server.closeAllConnections();
  await new Promise((resolve) => jwks.server.close(resolve));
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
}
if (printLog) {
  let log = '';
  try {
    log = readFileSync(logFile, 'utf8');
  } catch {
    // Schemathesis never started
  }
  if (log) {
    say(`the last 80 lines of ${relative(root, logFile)}:`);
    for (const line of tail(log, 80)) console.log(`fuzz| ${line}`);
  }
}
process.exit(exitCode);
