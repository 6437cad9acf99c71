/**
 * The webhook verification recipes of samples/webhooks/ (Python, Go, Java), built once per
 * run and started as a partner would: each tool's output goes to a log under
 * test-results/samples-webhooks/, never to the console (CI reads the console's closing lines,
 * and a build tool's or runner's summary must not be mistaken for ours).
 *
 * Builds are cached in .tools/webhook-samples/ (the Python venv, the Go binaries, the Java
 * classes and classpath, each rebuilt when its sources change); the downloads themselves stay
 * in each ecosystem's own cache (pip's, the Go module cache, ~/.m2), as for test:clients.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from '../support/documents.ts';
import { eventually } from '../support/wait.ts';

export const samples = join(root, 'samples', 'webhooks');
export const logs = join(root, 'test-results', 'samples-webhooks');
const cache = join(root, '.tools', 'webhook-samples');

/** Python writes no __pycache__ into samples/. */
const quiet = { PYTHONDONTWRITEBYTECODE: '1' };

/** Runs a command to its end, its output appended to `log`; rejects unless it exits 0. */
export function run(command: string, args: string[], log: string, cwd = root): Promise<void> {
  appendFileSync(log, `\n$ ${command} ${args.map((a) => (a.startsWith(root) ? relative(root, a) : a)).join(' ')}\n`);
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...quiet }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => appendFileSync(log, chunk));
    child.stderr.on('data', (chunk: Buffer) => appendFileSync(log, chunk));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`${command} exited ${code}: see ${relative(root, log)}`))));
  });
}

/** A hash of the files a build reads (`names`: files or folders of `folder`). */
function stampOf(folder: string, names: string[]): string {
  const files = names.flatMap((name) => {
    const path = join(folder, name);
    if (!statSync(path).isDirectory()) return [path];
    return readdirSync(path, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  });
  const hash = createHash('sha256');
  for (const file of files.sort()) hash.update(relative(folder, file)).update(readFileSync(file));
  return hash.digest('hex');
}

/** A build redone only when its stamp (kept in the folder it builds) changed since the last successful one. */
async function once(stampFile: string, stamp: string, build: () => Promise<void>) {
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return;
  rmSync(stampFile, { force: true });
  await build();
  writeFileSync(stampFile, stamp);
}

export interface Recipe {
  language: 'python' | 'go' | 'java';
  /** Builds the recipe (or finds it built) and returns how to start its programs. */
  build(log: string): Promise<{ vectors: string[]; receiver: string[] }>;
}

export const recipes: Recipe[] = [
  {
    language: 'python',
    async build(log) {
      const dir = join(samples, 'python');
      const venv = join(cache, 'python-venv');
      const python = join(venv, 'bin', 'python');
      await once(join(venv, 'built-from'), readFileSync(join(dir, 'requirements.txt'), 'utf8'), async () => {
        rmSync(venv, { recursive: true, force: true });
        await run('python3', ['-m', 'venv', venv], log);
        await run(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', '-r', join(dir, 'requirements.txt')], log);
      });
      return { vectors: [python, join(dir, 'vectors.py')], receiver: [python, join(dir, 'receiver.py')] };
    },
  },
  {
    language: 'go',
    async build(log) {
      const dir = join(samples, 'go');
      const bin = join(cache, 'go-bin');
      // go build is incremental on its own: no stamp needed.
      await run('go', ['build', '-o', `${bin}/`, './cmd/...'], log, dir);
      return { vectors: [join(bin, 'vectors')], receiver: [join(bin, 'receiver')] };
    },
  },
  {
    language: 'java',
    async build(log) {
      const out = join(cache, 'java');
      await once(join(out, 'built-from'), stampOf(join(samples, 'java'), ['pom.xml', 'src']), async () => {
        // Built in a copy, so the samples folder keeps no target/.
        rmSync(out, { recursive: true, force: true });
        mkdirSync(out, { recursive: true });
        cpSync(join(samples, 'java', 'pom.xml'), join(out, 'pom.xml'));
        cpSync(join(samples, 'java', 'src'), join(out, 'src'), { recursive: true });
        await run('mvn', ['-B', '-q', 'compile', 'dependency:build-classpath', '-Dmdep.outputFile=classpath.txt'], log, out);
      });
      const classpath = `${join(out, 'target', 'classes')}:${readFileSync(join(out, 'classpath.txt'), 'utf8').trim()}`;
      return { vectors: ['java', '-cp', classpath, 'com.example.ramp.Vectors'], receiver: ['java', '-cp', classpath, 'com.example.ramp.Receiver'] };
    },
  },
];

export interface RunningReceiver {
  url: string;
  /** Every line it printed so far. */
  lines: string[];
  /** Waits (the one budget of wait.ts) for a printed line matching `pattern`. */
  line(pattern: RegExp, what: string): Promise<string>;
  stop(): Promise<void>;
}

/** Starts a recipe's receiver on `port` with the subscription's secret; resolves once it listens. */
export async function startReceiver(command: string[], port: number, secret: string, log: string): Promise<RunningReceiver> {
  const [program, ...args] = command as [string, ...string[]];
  const child: ChildProcess = spawn(program, args, { env: { ...process.env, ...quiet, PORT: String(port), RAMP_WEBHOOK_SECRET: secret }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    appendFileSync(log, chunk);
    pending += chunk.toString('utf8');
    const complete = pending.split('\n');
    pending = complete.pop()!;
    lines.push(...complete);
  });
  child.stderr!.on('data', (chunk: Buffer) => appendFileSync(log, chunk));
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  const line = (pattern: RegExp, what: string) =>
    eventually(() => {
      if (exited !== undefined) throw new Error(`the receiver exited (${exited}) before printing ${what}: see ${relative(root, log)}`);
      return lines.find((l) => pattern.test(l));
    }, undefined, what);
  await line(new RegExp(`^listening on http://127\\.0\\.0\\.1:${port}$`), 'its "listening on" line');
  return {
    url: `http://127.0.0.1:${port}`,
    lines,
    line,
    async stop() {
      if (exited !== undefined) return;
      const gone = new Promise((done) => child.once('exit', done));
      child.kill();
      await gone;
    },
  };
}
