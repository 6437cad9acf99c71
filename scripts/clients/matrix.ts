/**
 * The generators' matrix of npm run test:clients (test-clients.ts runs it): for each
 * generator partners use, how its client is generated with default options, compiled at the
 * language's strict setting, and its smoke program (scripts/clients/<id>/) run against the
 * sandbox; and the tools each needs, installed on first use into .tools/.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..', '..');
export const here = join(root, 'scripts', 'clients');
const tools = join(root, '.tools');
export const bin = (name: string) => join(root, 'node_modules', '.bin', name);
/** The client-generation bundle (scripts/generate.ts, clientDocument): what the docs pages offer. */
export const document = join(root, 'generated', 'openapi', 'ramp-clients.yaml');
/** The joined document with the webhooks, for the generators that make the webhooks' models from it (ogen). */
export const withWebhooks = join(root, 'generated', 'openapi', 'ramp.yaml');

const OAPI_CODEGEN = 'github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2';
const OGEN = 'github.com/ogen-go/ogen/cmd/ogen@v1.24.0';
const openapiGeneratorVersion = JSON.parse(readFileSync(join(here, 'openapitools.json'), 'utf8'))['generator-cli'].version as string;
const npmVersion = (name: string) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version as string;
const pythonVersion = (name: string) => new RegExp(`^${name}==(\\S+)$`, 'm').exec(readFileSync(join(here, 'requirements.txt'), 'utf8'))?.[1] ?? '?';

export type StepName = 'generate' | 'compile' | 'flow';
export const stepNames: StepName[] = ['generate', 'compile', 'flow'];

export interface Context {
  id: string;
  /** The generator's working folder, emptied before each run (kept afterwards to inspect). */
  out: string;
  /** The smoke program's folder, scripts/clients/<id>. */
  smoke: string;
  /** RAMP_BASE_URL, RAMP_API_KEY, RAMP_ORGANIZATION_ID and RAMP_DELIVERY_FILE (a signed orderUpdated delivery, delivery.ts) for the flow. */
  env: Record<string, string>;
  /** Runs a command, its output appended to the generator's log; throws unless it exits 0. */
  run(command: string, args: string[], options?: { cwd?: string; env?: Record<string, string>; timeoutMs?: number }): Promise<void>;
}

export interface Generator {
  id: string;
  language: string;
  tool: string;
  version: () => string;
  /** In the default run (CI); the others run with --all. */
  ci: boolean;
  /** The option beyond the defaults it still needs, if any (docs/clients.md). */
  option?: string;
  /** The document it generates from, when not ramp-clients.yaml. */
  document?: string;
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

/** A Go tool (oapi-codegen, ogen) at its pinned version, built into .tools/bin from the Go module proxy. */
async function goTool(context: Context, module: string): Promise<string> {
  const dir = join(tools, 'bin');
  const name = module.split('@')[0]!.split('/').pop()!;
  const exe = join(dir, name);
  const stamp = join(dir, `${name}-${module.split('@')[1]}`);
  if (!existsSync(exe) || !existsSync(stamp)) {
    await context.run('go', ['install', module], { env: { GOBIN: dir, CGO_ENABLED: '0' } });
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
    steps: {
      generate: (c) => openapiGenerator(c, 'typescript-fetch'),
      compile: strictTsc,
      flow: tsxFlow,
    },
  },
  {
    id: 'openapi-generator-kotlin',
    language: 'kotlin',
    tool: 'openapi-generator',
    version: ogVersion,
    ci: false,
    steps: {
      generate: (c) => openapiGenerator(c, 'kotlin'),
      compile: async (c) => {
        // The generator writes a Gradle build; the pom.xml beside the smoke program builds
        // the same sources with the same dependencies from Maven Central.
        const target = join(c.out, 'src', 'main', 'kotlin', 'smoke');
        mkdirSync(target, { recursive: true });
        copyFileSync(join(c.smoke, 'Main.kt'), join(target, 'Main.kt'));
        copyFileSync(join(c.smoke, 'pom.xml'), join(c.out, 'pom.xml'));
        await c.run('mvn', ['-B', '-q', 'compile', 'dependency:build-classpath', '-Dmdep.outputFile=classpath.txt'], { cwd: c.out });
      },
      flow: (c) => c.run('java', ['-cp', `${join(c.out, 'target', 'classes')}:${readFileSync(join(c.out, 'classpath.txt'), 'utf8').trim()}`, 'smoke.MainKt'], { env: c.env }),
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
    option: 'output-options.skip-prune (event models)',
    steps: {
      generate: async (c) => {
        const exe = await goTool(c, OAPI_CODEGEN);
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
    id: 'ogen',
    language: 'go',
    tool: 'ogen',
    version: () => OGEN.split('@')[1]!,
    ci: true,
    document: 'ramp.yaml',
    steps: {
      generate: async (c) => {
        const exe = await goTool(c, OGEN);
        const client = join(c.out, 'client');
        // ramp.yaml, with the webhooks: ogen makes their event models from them (it generates
        // the schemas operations and webhooks use), and takes sign-in's two bodies.
        await c.run(exe, ['--target', client, '--package', 'ramp', '--clean', withWebhooks]);
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
    option: '--media-type-expr (typed errors), --export-schemas (event models)',
    steps: {
      generate: (c) => {
        mkdirSync(join(c.out, 'client'));
        // The options beyond the defaults (docs/clients.md): by default only
        // `application/json` answers get a schema, and RFC 9457 problems are
        // `application/problem+json`, so the typed errors would be `z.void()`; and only the
        // schemas operations use are exported, which leaves out the webhooks' event models.
        return c.run(bin('openapi-zod-client'), [
          document, '-o', join(c.out, 'client', 'ramp.ts'),
          '--media-type-expr', "mediaType === 'application/json' || mediaType === 'application/problem+json'",
          '--export-schemas',
        ]);
      },
      compile: strictTsc,
      flow: tsxFlow,
    },
  },
];
