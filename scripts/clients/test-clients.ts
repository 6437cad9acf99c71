/**
 * npm run test:clients: partners generate clients in their own languages from the joined
 * contract; this proves it works. It generates a Python and a Go client from
 * generated/openapi/ramp.yaml with openapi-generator (the npm CLI fetches its jar from Maven
 * Central once, into ~/.cache/openapi-generator-cli), starts a sandbox on a fresh data
 * directory with a fixed key, and runs a smoke test in each language against it: create a
 * webhook subscription, read prices, list organizations, and catch problems (409, 404) as
 * typed errors. Exits 1 when generation, a build or a smoke test fails.
 *
 * Generator options live beside each smoke test (scripts/clients/<language>/openapi-generator.yaml).
 * `skipFormModel=false`: the token and launch bodies are oneOfs that are also sent as forms;
 * by default the generator drops form-only models, and the Go union would not compile.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const here = join(root, 'scripts', 'clients');
const document = join(root, 'generated', 'openapi', 'ramp.yaml');
const goModule = 'github.com/ramp-example/ramp-go';

function step(title: string) {
  console.log(`\n== ${title}`);
}

/** Runs a command with its output shown; true when it exits 0. */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): boolean {
  const result = spawnSync(command, args, { cwd: options.cwd ?? root, env: { ...process.env, ...options.env }, stdio: 'inherit' });
  if (result.error) console.error(result.error.message);
  return result.status === 0;
}

function generate(language: 'python' | 'go', out: string, extra: string[] = []): boolean {
  const cli = join(root, 'node_modules', '@openapitools', 'openapi-generator-cli', 'main.js');
  return run(
    process.execPath,
    [cli, '--openapitools', join(here, 'openapitools.json'), 'generate', '-g', language, '-i', document, '-o', out, '-c', join(here, language, 'openapi-generator.yaml'), '--global-property', 'skipFormModel=false', ...extra],
    // The CLI resolves its configuration against PWD.
    { env: { PWD: root, JAVA_OPTS: '-Dlog.level=warn' } },
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

async function startSandbox(dataDir: string, key: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'server', 'main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), RAMP_DATA_DIR: dataDir, RAMP_SEED_API_KEY: key, RAMP_PRICES_WARMUP_MS: '0', LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the sandbox exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/lookup/tokens/cost`);
      if (response.ok) return { url, process: child };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the sandbox did not answer within 120 s');
    await new Promise((done) => setTimeout(done, 250));
  }
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'ramp-clients-'));
  const organizationId = randomUUID();
  const key = `api_sand:${randomBytes(16).toString('hex')}:${organizationId}`;
  const results: Record<string, boolean> = {};
  let sandbox: { url: string; process: ChildProcess } | undefined;
  try {
    step('generate the Python client');
    results['python: generate'] = generate('python', join(work, 'python'));
    step('generate the Go client');
    results['go: generate'] = generate('go', join(work, 'go'), ['--git-host', 'github.com', '--git-user-id', 'ramp-example', '--git-repo-id', 'ramp-go']);

    step('start the sandbox');
    sandbox = await startSandbox(join(work, 'data'), key);
    console.log(`sandbox on ${sandbox.url}`);
    const env = { RAMP_BASE_URL: sandbox.url, RAMP_API_KEY: key, RAMP_ORGANIZATION_ID: organizationId };

    if (results['python: generate']) {
      step('Python: install the client in a virtual environment and run the smoke test');
      const venv = join(work, 'venv');
      const pip = join(venv, 'bin', 'pip');
      results['python: install'] =
        run('python3', ['-m', 'venv', venv]) && run(pip, ['install', '--quiet', '--disable-pip-version-check', join(work, 'python')]);
      if (results['python: install']) results['python: smoke test'] = run(join(venv, 'bin', 'python'), [join(here, 'python', 'smoke.py')], { env });
    }

    if (results['go: generate']) {
      step('Go: build the client and run the smoke test');
      const smoke = join(work, 'go-smoke');
      mkdirSync(smoke);
      copyFileSync(join(here, 'go', 'main.go'), join(smoke, 'main.go'));
      writeFileSync(join(smoke, 'go.mod'), `module ramp-smoke\n\ngo 1.23\n\nrequire ${goModule} v0.0.0\n\nreplace ${goModule} => ../go\n`);
      const goEnv = { GOFLAGS: '-mod=mod' };
      results['go: build'] = run('go', ['mod', 'tidy'], { cwd: join(work, 'go'), env: goEnv }) && run('go', ['vet', '.'], { cwd: join(work, 'go'), env: goEnv }) && run('go', ['mod', 'tidy'], { cwd: smoke, env: goEnv });
      if (results['go: build']) results['go: smoke test'] = run('go', ['run', '.'], { cwd: smoke, env: { ...goEnv, ...env } });
    }
  } catch (error) {
    console.error((error as Error).message);
    results.sandbox = false;
  } finally {
    sandbox?.process.kill('SIGTERM');
  }
  step('results');
  for (const [name, ok] of Object.entries(results)) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
  const failed = Object.values(results).some((ok) => !ok) || !('python: smoke test' in results) || !('go: smoke test' in results);
  if (failed) console.log(`test:clients FAILED (generated clients kept in ${work})`);
  else {
    rmSync(work, { recursive: true, force: true });
    console.log('test:clients passed');
  }
  process.exit(failed ? 1 : 0);
}

await main();
