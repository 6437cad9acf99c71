/**
 * npm run test:clients [-- --all | --only <id,…>]: partners generate clients in their own
 * languages from generated/openapi/ramp-clients.yaml; this proves each generator they use
 * works with its default options. For each generator of the matrix below it
 *
 *   generate  makes the client (no --skip-validate-spec, no workaround options: only the
 *             package name or module path a partner chooses, and the one option the README
 *             names for typescript-fetch and for openapi-zod-client's typed errors),
 *   compile   type-checks it at the language's strict setting, with the smoke program,
 *   flow      runs the smoke program (scripts/clients/<id>/) against one fresh sandbox:
 *             list organizations, create a customer, read token costs, create a webhook
 *             subscription, and create it again to get the 409 `conflict` decoded as the
 *             typed ConflictProblem where the generator decodes error bodies,
 *
 * and prints one row per generator. Every tool's own output goes to
 * test-results/clients/<id>.log, never to the console: CI reads the console's closing lines,
 * and a compiler's or test runner's summary must not be mistaken for ours. The results are
 * also in test-results/clients/results.json and, one testcase per step, junit.xml (summed by
 * scripts/ci-tally.ts). Exits 1 when any step fails.
 *
 * Without --all it runs the subset that fits CI's time budget (`ci: true` below; the README
 * has the timings of the latest full run). Every generator is pinned: openapi-generator in
 * openapitools.json (its npm CLI fetches the jar from Maven Central once), the npm ones
 * in package.json, the Python ones in requirements.txt (a venv in .tools/clients-python),
 * oapi-codegen below (go install into .tools/bin).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const here = join(root, 'scripts', 'clients');
const results = join(root, 'test-results', 'clients');
const tools = join(root, '.tools');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
/** The client-generation bundle (scripts/generate.ts, clientDocument). */
export const document = join(root, 'generated', 'openapi', 'ramp-clients.yaml');

const OAPI_CODEGEN = 'github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2';
const openapiGeneratorVersion = JSON.parse(readFileSync(join(here, 'openapitools.json'), 'utf8'))['generator-cli'].version as string;
const npmVersion = (name: string) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version as string;
const pythonVersion = (name: string) => new RegExp(`^${name}==(\\S+)$`, 'm').exec(readFileSync(join(here, 'requirements.txt'), 'utf8'))?.[1] ?? '?';

export type StepName = 'generate' | 'compile' | 'flow';
export const stepNames: StepName[] = ['generate', 'compile', 'flow'];

interface Context {
  id: string;
  /** The generator's working folder, emptied before each run (kept afterwards to inspect). */
  out: string;
  /** The smoke program's folder, scripts/clients/<id>. */
  smoke: string;
  /** RAMP_BASE_URL, RAMP_API_KEY, RAMP_ORGANIZATION_ID for the flow. */
  env: Record<string, string>;
  /** Runs a command, its output appended to the generator's log; throws unless it exits 0. */
  run(command: string, args: string[], options?: { cwd?: string; env?: Record<string, string>; timeoutMs?: number }): Promise<void>;
}

interface Generator {
  id: string;
  language: string;
  tool: string;
  version: () => string;
  /** In the default run (CI); the others run with --all. */
  ci: boolean;
  /** The option beyond the defaults it still needs, if any (README, "Generate a client"). */
  option?: string;
  steps: Record<StepName, (context: Context) => Promise<void>>;
}

// ---------------------------------------------------------------------------------------
// Tools, installed on first use

async function pythonTools(context: Context): Promise<string> {
  const venv = join(tools, 'clients-python');
  const stamp = join(venv, 'requirements.txt');
  const wanted = readFileSync(join(here, 'requirements.txt'), 'utf8');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== wanted) {
    rmSync(venv, { recursive: true, force: true });
    await context.run('python3', ['-m', 'venv', venv]);
    await context.run(join(venv, 'bin', 'pip'), ['install', '--disable-pip-version-check', '-r', join(here, 'requirements.txt')]);
    writeFileSync(stamp, wanted);
  }
  return join(venv, 'bin');
}

async function oapiCodegen(context: Context): Promise<string> {
  const dir = join(tools, 'bin');
  const exe = join(dir, 'oapi-codegen');
  const stamp = join(dir, `oapi-codegen-${OAPI_CODEGEN.split('@')[1]}`);
  if (!existsSync(exe) || !existsSync(stamp)) {
    await context.run('go', ['install', OAPI_CODEGEN], { env: { GOBIN: dir, CGO_ENABLED: '0' } });
    writeFileSync(stamp, '');
  }
  return exe;
}

function openapiGenerator(context: Context, generator: string, out = context.out) {
  const cli = join(root, 'node_modules', '@openapitools', 'openapi-generator-cli', 'main.js');
  const config = join(context.smoke, 'openapi-generator.yaml');
  return context.run(
    process.execPath,
    [cli, '--openapitools', join(here, 'openapitools.json'), 'generate', '-g', generator, '-i', document, '-o', out, ...(existsSync(config) ? ['-c', config] : [])],
    // The CLI resolves its configuration against PWD.
    { env: { PWD: root } },
  );
}

/** A strict tsc over a generated TypeScript client and its smoke program. */
async function strictTsc(context: Context) {
  copyFileSync(join(context.smoke, 'smoke.ts'), join(context.out, 'smoke.ts'));
  writeFileSync(
    join(context.out, 'tsconfig.json'),
    JSON.stringify(
      {
        // The settings of a partner's strict project built with a bundler. skipLibCheck only
        // skips node_modules' declarations, not the generated code.
        compilerOptions: { target: 'ES2022', lib: ['ES2022', 'DOM'], module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
        include: ['**/*.ts'],
      },
      null,
      2,
    ),
  );
  await context.run(bin('tsc'), ['-p', context.out]);
}

const tsxFlow = (context: Context) => context.run(bin('tsx'), [join(context.out, 'smoke.ts')], { cwd: context.out, env: context.env });

/** A Go module with the smoke program that uses the generated package through a replace. */
/** A generated Go client's strict build (`go vet`), then the smoke program built against it. */
async function goCompile(context: Context, module: string) {
  await context.run('go', ['mod', 'tidy'], { cwd: join(context.out, 'client') });
  await context.run('go', ['vet', '.'], { cwd: join(context.out, 'client') });
  await goSmoke(context, module);
}

async function goSmoke(context: Context, module: string) {
  const smoke = join(context.out, 'smoke');
  mkdirSync(smoke, { recursive: true });
  copyFileSync(join(context.smoke, 'main.go'), join(smoke, 'main.go'));
  writeFileSync(join(smoke, 'go.mod'), `module ramp-smoke\n\ngo 1.23\n\nrequire ${module} v0.0.0\n\nreplace ${module} => ../client\n`);
  await context.run('go', ['mod', 'tidy'], { cwd: smoke });
  await context.run('go', ['vet', '.'], { cwd: smoke });
  await context.run('go', ['build', '-o', join(context.out, 'smoke-bin'), '.'], { cwd: smoke });
}

// ---------------------------------------------------------------------------------------
// The matrix

const ogVersion = () => openapiGeneratorVersion;

export const generators: Generator[] = [
  {
    id: 'openapi-generator-python',
    language: 'python',
    tool: 'openapi-generator',
    version: ogVersion,
    ci: true,
    steps: {
      generate: (c) => openapiGenerator(c, 'python'),
      compile: async (c) => {
        const py = await pythonTools(c);
        await c.run(join(py, 'mypy'), ['--no-error-summary', 'ramp_client', join(c.smoke, 'smoke.py')], { cwd: c.out, env: { MYPYPATH: c.out } });
      },
      flow: async (c) => c.run(join(await pythonTools(c), 'python'), [join(c.smoke, 'smoke.py')], { env: { ...c.env, PYTHONPATH: c.out } }),
    },
  },
  {
    id: 'openapi-generator-go',
    language: 'go',
    tool: 'openapi-generator',
    version: ogVersion,
    ci: true,
    steps: {
      generate: (c) => openapiGenerator(c, 'go', join(c.out, 'client')),
      compile: (c) => goCompile(c, 'github.com/ramp-example/ramp-go'),
      flow: (c) => c.run(join(c.out, 'smoke-bin'), [], { env: c.env }),
    },
  },
  {
    id: 'openapi-generator-java',
    language: 'java okhttp-gson',
    tool: 'openapi-generator',
    version: ogVersion,
    ci: false,
    steps: {
      generate: (c) => openapiGenerator(c, 'java'),
      compile: async (c) => {
        const target = join(c.out, 'src', 'main', 'java', 'smoke');
        mkdirSync(target, { recursive: true });
        copyFileSync(join(c.smoke, 'Smoke.java'), join(target, 'Smoke.java'));
        await c.run('mvn', ['-B', '-q', 'compile', 'dependency:build-classpath', '-Dmdep.outputFile=classpath.txt', '-Dmaven.compiler.showWarnings=true'], { cwd: c.out });
      },
      flow: (c) => c.run('java', ['-cp', `${join(c.out, 'target', 'classes')}:${readFileSync(join(c.out, 'classpath.txt'), 'utf8').trim()}`, 'smoke.Smoke'], { env: c.env }),
    },
  },
  {
    id: 'openapi-generator-rust',
    language: 'rust',
    tool: 'openapi-generator',
    version: ogVersion,
    ci: false,
    steps: {
      generate: (c) => openapiGenerator(c, 'rust', join(c.out, 'client')),
      compile: async (c) => {
        const smoke = join(c.out, 'smoke');
        mkdirSync(join(smoke, 'src'), { recursive: true });
        copyFileSync(join(c.smoke, 'main.rs'), join(smoke, 'src', 'main.rs'));
        copyFileSync(join(c.smoke, 'Cargo.toml'), join(smoke, 'Cargo.toml'));
        // One target folder across runs: the dependencies (reqwest, tokio, serde) build once.
        const env = { CARGO_TARGET_DIR: join(tools, 'cargo-target') };
        await c.run('cargo', ['check', '--quiet', '--manifest-path', join(c.out, 'client', 'Cargo.toml')], { env });
        await c.run('cargo', ['build', '--quiet', '--manifest-path', join(smoke, 'Cargo.toml')], { env });
      },
      flow: (c) => c.run(join(tools, 'cargo-target', 'debug', 'ramp-smoke'), [], { env: c.env }),
    },
  },
  {
    id: 'openapi-generator-typescript-fetch',
    language: 'typescript-fetch',
    tool: 'openapi-generator',
    version: ogVersion,
    ci: false,
    option: 'modelPropertyNaming=original',
    steps: {
      generate: (c) => openapiGenerator(c, 'typescript-fetch'),
      compile: strictTsc,
      flow: tsxFlow,
    },
  },
  {
    id: 'openapi-python-client',
    language: 'python',
    tool: 'openapi-python-client',
    version: () => pythonVersion('openapi-python-client'),
    ci: true,
    steps: {
      generate: async (c) => {
        const py = await pythonTools(c);
        rmSync(c.out, { recursive: true, force: true });
        await c.run(join(py, 'openapi-python-client'), ['generate', '--path', document, '--output-path', c.out, '--config', join(c.smoke, 'config.yaml')], { env: { PATH: `${py}:${process.env.PATH}` } });
      },
      compile: async (c) => {
        const py = await pythonTools(c);
        await c.run(join(py, 'mypy'), ['--strict', '--no-error-summary', 'ramp_client', join(c.smoke, 'smoke.py')], { cwd: c.out, env: { MYPYPATH: c.out } });
      },
      flow: async (c) => c.run(join(await pythonTools(c), 'python'), [join(c.smoke, 'smoke.py')], { env: { ...c.env, PYTHONPATH: c.out } }),
    },
  },
  {
    id: 'oapi-codegen',
    language: 'go',
    tool: 'oapi-codegen',
    version: () => OAPI_CODEGEN.split('@')[1]!,
    ci: true,
    steps: {
      generate: async (c) => {
        const exe = await oapiCodegen(c);
        const client = join(c.out, 'client');
        mkdirSync(client, { recursive: true });
        await c.run(exe, ['-config', join(c.smoke, 'oapi-codegen.yaml'), document], { cwd: client });
        writeFileSync(join(client, 'go.mod'), 'module ramp-example/ramp\n\ngo 1.23\n');
      },
      compile: (c) => goCompile(c, 'ramp-example/ramp'),
      flow: (c) => c.run(join(c.out, 'smoke-bin'), [], { env: c.env }),
    },
  },
  {
    id: 'hey-api',
    language: 'typescript',
    tool: '@hey-api/openapi-ts',
    version: () => npmVersion('@hey-api/openapi-ts'),
    ci: true,
    steps: {
      generate: (c) => c.run(bin('openapi-ts'), ['-i', document, '-o', join(c.out, 'client')]),
      compile: strictTsc,
      flow: tsxFlow,
    },
  },
  {
    id: 'orval',
    language: 'typescript',
    tool: 'orval',
    version: () => npmVersion('orval'),
    ci: true,
    steps: {
      generate: (c) => c.run(bin('orval'), ['--input', document, '--output', join(c.out, 'client', 'ramp.ts')], { cwd: c.out }),
      compile: strictTsc,
      flow: tsxFlow,
    },
  },
  {
    id: 'openapi-zod-client',
    language: 'typescript',
    tool: 'openapi-zod-client',
    version: () => npmVersion('openapi-zod-client'),
    ci: true,
    option: '--media-type-expr (typed errors)',
    steps: {
      generate: (c) => {
        mkdirSync(join(c.out, 'client'));
        // The one option beyond the defaults (README, "Generate a client"): by default only
        // `application/json` answers get a schema, and RFC 9457 problems are
        // `application/problem+json`, so the typed errors would be `z.void()`.
        return c.run(bin('openapi-zod-client'), [document, '-o', join(c.out, 'client', 'ramp.ts'), '--media-type-expr', "mediaType === 'application/json' || mediaType === 'application/problem+json'"]);
      },
      compile: strictTsc,
      flow: tsxFlow,
    },
  },
];

// ---------------------------------------------------------------------------------------
// Running

function logTo(file: string) {
  return (text: string) => appendFileSync(file, text);
}

function runner(log: (text: string) => void): Context['run'] {
  return (command, args, options = {}) =>
    new Promise((done, fail) => {
      log(`\n$ ${command} ${args.join(' ')}${options.cwd ? `   (in ${options.cwd})` : ''}\n`);
      const child = spawn(command, args, { cwd: options.cwd ?? root, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk: Buffer) => log(chunk.toString()));
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

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
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
      const response = await fetch(`${url}/lookup/tokens/cost`);
      if (response.ok) return { url, process: child };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the sandbox did not answer within 120 s');
    await new Promise((done) => setTimeout(done, 250));
  }
}

export interface StepResult {
  status: 'passed' | 'failed' | 'skipped';
  seconds: number;
  message?: string;
}

export interface Row {
  id: string;
  language: string;
  tool: string;
  version: string;
  ci: boolean;
  option?: string;
  steps: Record<StepName, StepResult>;
}

const label = (g: { language: string; tool: string; version: string }) => `${g.language} (${g.tool} ${g.version})`;
const mark = { passed: '✓', failed: '✗', skipped: '–' } as const;

export function rowText(row: Row, width: number): string {
  const cells = stepNames.map((name) => {
    const s = row.steps[name];
    return `${name} ${mark[s.status]}${s.status === 'skipped' ? '' : ` ${s.seconds.toFixed(0)}s`}`.padEnd(14);
  });
  const failure = stepNames.map((name) => row.steps[name]).find((s) => s.status === 'failed');
  return `clients  ${label(row).padEnd(width)}  ${cells.join('  ')}${failure ? `  ${failure.message} (test-results/clients/${row.id}.log)` : ''}`.trimEnd();
}

/** The closing line: never "N passed, N failed", which CI would read as a test runner's own. */
export const summaryLine = (green: number, total: number, seconds: number) =>
  `clients: ${green} of ${total} generators green in ${Math.round(seconds)} s (test-results/clients/results.json, junit.xml)`;

const xml = (text: string) => text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

export function junit(rows: Row[], seconds: number): string {
  const cases = rows.flatMap((row) =>
    stepNames.map((name) => {
      const s = row.steps[name];
      const body =
        s.status === 'failed' ? `<failure message="${xml(s.message ?? 'failed')}">see test-results/clients/${row.id}.log</failure>` : s.status === 'skipped' ? '<skipped/>' : '';
      return `    <testcase classname="clients.${row.id}" name="${xml(`${label(row)}: ${name}`)}" time="${s.seconds.toFixed(3)}">${body}</testcase>`;
    }),
  );
  const count = (status: StepResult['status']) => rows.flatMap((r) => stepNames.map((n) => r.steps[n])).filter((s) => s.status === status).length;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="clients" tests="${rows.length * stepNames.length}" failures="${count('failed')}" errors="0" skipped="${count('skipped')}" time="${seconds.toFixed(3)}">
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}

/**
 * A full run (--all) rewrites the matrix in the README, between its markers, as the bench
 * does with its verdicts: the README always shows the latest full table.
 */
function writeReadmeTable(rows: Row[], seconds: number) {
  const file = join(root, 'README.md');
  const readme = readFileSync(file, 'utf8');
  const start = '<!-- clients matrix: written by npm run test:clients -- --all -->';
  const end = '<!-- end of clients matrix -->';
  if (!readme.includes(start) || !readme.includes(end)) return;
  const cell = (s: StepResult) => (s.status === 'passed' ? `✅ ${s.seconds.toFixed(0)} s` : s.status === 'failed' ? `❌ ${s.message ?? ''}` : '–');
  const table = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${Math.round(seconds)} s in all, one generator at a time on a shared 2-core machine; \`ci\`: in the default run.`,
    '',
    '| generator | version | language | option beyond the defaults | generate | compile | flow | ci |',
    '|-|-|-|-|-|-|-|-|',
    ...rows.map((r) => `| ${r.tool} | ${r.version} | ${r.language} | ${r.option ? `\`${r.option}\`` : 'none'} | ${cell(r.steps.generate)} | ${cell(r.steps.compile)} | ${cell(r.steps.flow)} | ${r.ci ? 'yes' : ''} |`),
  ].join('\n');
  writeFileSync(file, `${readme.slice(0, readme.indexOf(start) + start.length)}\n\n${table}\n\n${readme.slice(readme.indexOf(end))}`);
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
  console.log(`clients: ${chosen.length} generators from generated/openapi/ramp-clients.yaml; each tool's output in test-results/clients/<generator>.log`);

  const organizationId = randomUUID();
  const key = `api_sand:${randomBytes(16).toString('hex')}:${organizationId}`;
  const sandboxLog = logTo(join(results, 'sandbox.log'));
  let sandbox: { url: string; process: ChildProcess } | undefined;
  const rows: Row[] = [];
  try {
    const dataDir = join(results, 'work', 'sandbox-data');
    rmSync(dataDir, { recursive: true, force: true });
    sandbox = await startSandbox(dataDir, key, sandboxLog);
    // Generators run one at a time: the machine's two cores are shared.
    for (const g of chosen) {
      const out = join(results, 'work', g.id);
      rmSync(out, { recursive: true, force: true });
      mkdirSync(out, { recursive: true });
      const log = logTo(join(results, `${g.id}.log`));
      const context: Context = {
        id: g.id,
        out,
        smoke: join(here, g.id),
        env: { RAMP_BASE_URL: sandbox.url, RAMP_API_KEY: key, RAMP_ORGANIZATION_ID: organizationId },
        run: runner(log),
      };
      const row: Row = { id: g.id, language: g.language, tool: g.tool, version: g.version(), ci: g.ci, ...(g.option ? { option: g.option } : {}), steps: {} as Row['steps'] };
      let failed = false;
      for (const name of stepNames) {
        if (failed || !steps.includes(name)) {
          row.steps[name] = { status: 'skipped', seconds: 0 };
          continue;
        }
        const t0 = Date.now();
        log(`\n## ${name}\n`);
        try {
          await g.steps[name](context);
          row.steps[name] = { status: 'passed', seconds: (Date.now() - t0) / 1000 };
        } catch (error) {
          failed = true;
          row.steps[name] = { status: 'failed', seconds: (Date.now() - t0) / 1000, message: (error as Error).message };
          log(`\n${name} failed: ${(error as Error).message}\n`);
        }
      }
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
  writeFileSync(join(results, 'results.json'), `${JSON.stringify({ document: 'generated/openapi/ramp-clients.yaml', seconds, generators: rows }, null, 2)}\n`);
  writeFileSync(join(results, 'junit.xml'), junit(rows, seconds));
  const green = rows.filter((r) => stepNames.every((n) => r.steps[n].status === 'passed')).length;
  if (args.includes('--all') && !only && steps === stepNames) writeReadmeTable(rows, seconds);
  console.log(summaryLine(green, chosen.length, seconds));
  if (green < chosen.length) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
