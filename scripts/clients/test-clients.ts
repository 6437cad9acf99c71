/**
 * npm run test:clients [-- --all | --only <id,…>]: partners generate clients in their own
 * languages from generated/openapi/ramp-clients.yaml, the document the docs pages offer (ogen
 * from ramp.yaml, which it takes with the webhooks and makes their models from); this proves
 * each generator they use works with its default options. For each generator of the matrix (matrix.ts) it
 *
 *   generate  makes the client (no --skip-validate-spec, no workaround options: only the
 *             package name or module path a partner chooses, and the options docs/clients.md
 *             names for oapi-codegen's and openapi-zod-client's event models and the latter's typed errors),
 *   compile   type-checks it at the language's strict setting, with the smoke program,
 *   flow      runs the smoke program (scripts/clients/<id>/) against one fresh sandbox:
 *             list organizations, create a customer, read token costs, create a webhook
 *             subscription, and create it again to get the 409 `conflict` decoded as the
 *             typed ConflictProblem where the generator decodes error bodies; then
 *             decode the live delivery in $RAMP_DELIVERY_FILE with the generated event
 *             model and print `delivery orderUpdated <order id> <status>`, which must be
 *             the order the harness canceled (delivery.ts: a loopback receiver, the
 *             signature checked with the partner SDK before any program reads the body),
 *
 * and prints one row per generator. Every tool's own output goes to
 * test-results/clients/<id>.log, never to the console: CI reads the console's closing lines,
 * and a compiler's or test runner's summary must not be mistaken for ours. The results are
 * also in test-results/clients/results.json and, one testcase per step, junit.xml (summed by
 * scripts/ci-tally.ts). Exits 1 when any step fails.
 *
 * Without --all it runs the subset that fits CI's time budget (`ci: true` in matrix.ts; docs/clients.md
 * has the timings of the latest full run). Every generator is pinned: openapi-generator in
 * openapitools.json (its npm CLI fetches the jar from Maven Central once), the npm ones
 * in package.json, the Python ones in requirements.txt (a venv in .tools/clients-python),
 * oapi-codegen and ogen in matrix.ts (go install into .tools/bin); Kotlin's dependencies in
 * scripts/clients/openapi-generator-kotlin/pom.xml.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bin, generators, here, root, stepNames, type Context, type Generator, type StepName } from './matrix.ts';
import { captureDelivery, checkDecoded, type Delivery } from './delivery.ts';
import { junit, label, rowText, summaryLine, writeReadmeTable, type Row } from './report.ts';
import { freePort } from '../../test/support/ports.ts';

const results = join(root, 'test-results', 'clients');

// ---------------------------------------------------------------------------------------
// Running

function logTo(file: string) {
  return (text: string) => appendFileSync(file, text);
}

/** `stdout` also receives each command's standard output (the flow's printed delivery line). */
function runner(log: (text: string) => void, stdout: (text: string) => void = () => {}): Context['run'] {
  return (command, args, options = {}) =>
    new Promise((done, fail) => {
      log(`\n$ ${command} ${args.join(' ')}${options.cwd ? `   (in ${options.cwd})` : ''}\n`);
      const child = spawn(command, args, { cwd: options.cwd ?? root, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk: Buffer) => {
        log(chunk.toString());
        stdout(chunk.toString());
      });
      child.stderr.on('data', (chunk: Buffer) => log(chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15 * 60_000);
      child.on('error', (error) => {
        clearTimeout(timer);
        fail(error);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) done();
        else fail(new Error(`${command.split('/').pop()} ${signal ? `killed by ${signal}` : `exited ${code}`}`));
      });
    });
}

async function startSandbox(dataDir: string, key: string, log: (text: string) => void): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(bin('tsx'), [join(root, 'server', 'main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), RAMP_DATA_DIR: dataDir, RAMP_SEED_API_KEY: key, RAMP_PRICES_WARMUP_MS: '0', LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => log(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => log(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the sandbox exited with ${child.exitCode} (test-results/clients/sandbox.log)`);
    try {
      // Readiness (getHealth): the database is open and migrated.
      const response = await fetch(`${url}/health`);
      if (response.ok) return { url, process: child };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the sandbox did not answer within 120 s');
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** One generator's steps, in order, each after the previous one passed; its row of the report. */
async function runGenerator(g: Generator, env: Record<string, string>, steps: StepName[], delivery: Delivery): Promise<Row> {
  const out = join(results, 'work', g.id);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const log = logTo(join(results, `${g.id}.log`));
  let printed = '';
  const context: Context = { id: g.id, out, smoke: join(here, g.id), env, run: runner(log, (text) => (printed += text)) };
  const row: Row = {
    id: g.id, language: g.language, tool: g.tool, version: g.version(), ci: g.ci, document: g.document ?? 'ramp-clients.yaml', ...(g.option ? { option: g.option } : {}), steps: {} as Row['steps'],
  };
  let failed = false;
  for (const name of stepNames) {
    if (failed || !steps.includes(name)) {
      row.steps[name] = { status: 'skipped', seconds: 0 };
      continue;
    }
    const t0 = Date.now();
    log(`\n## ${name}\n`);
    try {
      printed = '';
      await g.steps[name](context);
      // The delivery decoded with the generated model must be the one the harness caused.
      if (name === 'flow') checkDecoded(printed, delivery);
      row.steps[name] = { status: 'passed', seconds: (Date.now() - t0) / 1000 };
    } catch (error) {
      failed = true;
      row.steps[name] = { status: 'failed', seconds: (Date.now() - t0) / 1000, message: (error as Error).message };
      log(`\n${name} failed: ${(error as Error).message}\n`);
    }
  }
  return row;
}

async function main() {
  const args = process.argv.slice(2);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1]!.split(',') : undefined;
  const unknown = only?.filter((id) => !generators.some((g) => g.id === id)) ?? [];
  if (unknown.length > 0) {
    console.error(`clients: unknown generator ${unknown.join(', ')}; known: ${generators.map((g) => g.id).join(', ')}`);
    process.exit(2);
  }
  // --steps generate[,compile]: stop after those steps (while working on the contract).
  const steps = args.includes('--steps') ? (args[args.indexOf('--steps') + 1]!.split(',') as StepName[]) : stepNames;
  const chosen = generators.filter((g) => (only ? only.includes(g.id) : args.includes('--all') || g.ci));
  const started = Date.now();
  mkdirSync(results, { recursive: true });
  for (const entry of readdirSync(results)) if (entry.endsWith('.log') || entry.endsWith('.xml') || entry.endsWith('.json')) rmSync(join(results, entry));
  const width = Math.max(...chosen.map((g) => label({ ...g, version: g.version() }).length));
  console.log(`clients: ${chosen.length} generators from generated/openapi/ramp-clients.yaml (ogen: ramp.yaml); each tool's output in test-results/clients/<generator>.log`);

  const organizationId = randomUUID();
  const key = `api_sand:${randomBytes(16).toString('hex')}:${organizationId}`;
  const sandboxLog = logTo(join(results, 'sandbox.log'));
  let sandbox: { url: string; process: ChildProcess } | undefined;
  const rows: Row[] = [];
  try {
    const dataDir = join(results, 'work', 'sandbox-data');
    rmSync(dataDir, { recursive: true, force: true });
    sandbox = await startSandbox(dataDir, key, sandboxLog);
    const delivery = await captureDelivery(sandbox.url, key, join(results, 'work', 'delivery.json'));
    // Generators run one at a time: the machine's two cores are shared.
    const env = { RAMP_BASE_URL: sandbox.url, RAMP_API_KEY: key, RAMP_ORGANIZATION_ID: organizationId, RAMP_DELIVERY_FILE: delivery.file };
    for (const g of chosen) {
      const row = await runGenerator(g, env, steps, delivery);
      rows.push(row);
      console.log(rowText(row, width));
    }
  } catch (error) {
    console.error(`clients: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    sandbox?.process.kill('SIGTERM');
  }
  const seconds = (Date.now() - started) / 1000;
  writeFileSync(join(results, 'results.json'), `${JSON.stringify({ seconds, generators: rows }, null, 2)}\n`);
  writeFileSync(join(results, 'junit.xml'), junit(rows, seconds));
  const green = rows.filter((r) => stepNames.every((n) => r.steps[n].status === 'passed')).length;
  if (args.includes('--all') && !only && steps === stepNames) writeReadmeTable(rows, seconds);
  console.log(summaryLine(green, chosen.length, seconds));
  if (green < chosen.length) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
