/**
 * The servers compared, each in its own process so none shares an event loop with the
 * load generator: (a) ours validating requests and responses, (b) ours with validation
 * off, (c) Prism mocking the same bundle, (d) a bare Express 5 route and (e) a bare
 * node:http server, both answering the bytes ours answered, and in the open loop (f) that
 * node:http server computing on each request for as long as ours costs more than it.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin, root, startChild, waitUntilAnswering, type Child } from './lib.ts';
import { freePort } from '../test/support/ports.ts';
import type { Fixture } from './peers/fixtures.ts';

export type TargetId = 'validated' | 'unvalidated' | 'prism' | 'express' | 'http' | 'costed';

export const targetLabels: Record<TargetId, string> = {
  validated: '(a) ours, validated',
  unvalidated: '(b) ours, validation off',
  prism: '(c) Prism mock',
  express: '(d) bare Express 5',
  http: '(e) bare node:http',
  costed: "(f) node:http at ours' cost",
};

const tsx = ['--import', 'tsx'];

export interface OurServerOptions {
  validate: boolean;
  dataDir: string;
  databaseUrl?: string;
  seedApiKey: string;
  env?: NodeJS.ProcessEnv;
  /** Where this server writes its CPU profile (BENCH_PROFILE); none: not profiled. */
  profileDir?: string;
}

/** npm start's first step (scripts/build-server.mjs), once per bench run: ms it took. */
let bundled: number | undefined;
export function bundleServer(): number {
  if (bundled === undefined) {
    const started = performance.now();
    execFileSync(process.execPath, [join(root, 'scripts', 'build-server.mjs')], { cwd: root, stdio: 'inherit' });
    bundled = performance.now() - started;
  }
  return bundled;
}

/** `npm start` without npm, so the pid is the server's own: the bundle, built once beforehand. */
/**
 * A server given a `profileDir` writes a V8 CPU profile there when it stops (BENCH_PROFILE's
 * runs of their own, bench/throughput.ts); every other server runs as npm start runs it, since the
 * sampling profiler costs it CPU that no peer pays.
 */
const profileArgs = (dir: string | undefined) => (dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []);

export async function startOurs(options: OurServerOptions): Promise<Child & { startedAt: number }> {
  bundleServer();
  const port = await freePort();
  const startedAt = performance.now();
  const child = startChild(options.validate ? 'server (validated)' : 'server (validation off)', process.execPath, [...profileArgs(options.profileDir), '--enable-source-maps', join(root, 'dist', 'server.js')], {
    url: `http://127.0.0.1:${port}`,
    env: {
      PORT: String(port),
      RAMP_ENV: 'sandbox',
      RAMP_DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl ?? '',
      RAMP_SEED_API_KEY: options.seedApiKey,
      RAMP_VALIDATE_RESPONSES: String(options.validate),
      RAMP_VALIDATE_REQUESTS: String(options.validate),
      RAMP_PRICES_WARMUP_MS: '0',
      // The default level: what `npm start` logs (a line per request, one per webhook attempt).
      LOG_LEVEL: 'info',
      ...options.env,
    },
  });
  return Object.assign(child, { startedAt });
}

export async function startPrism(): Promise<Child> {
  const port = await freePort();
  // Prism logs every request at info; warn gives it its best throughput.
  const child = startChild('prism mock', bin('prism'), ['mock', join(root, 'generated', 'openapi', 'ramp.yaml'), '-h', '127.0.0.1', '-p', String(port), '-v', 'warn'], {
    url: `http://127.0.0.1:${port}`,
  });
  await waitUntilAnswering(child, '/lookup/country-codes', { timeoutMs: 120_000 });
  return child;
}

/** A peer answering `fixtures`; node:http computes `workUs` µs on each request first (peers/bare-http.ts). */
export async function startPeer(kind: 'express' | 'http', fixtures: Fixture[], workDir: string, workUs = 0): Promise<Child> {
  const port = await freePort();
  const file = join(workDir, `fixtures-${kind}-${port}.json`);
  writeFileSync(file, JSON.stringify(fixtures));
  const name = kind === 'express' ? 'bare Express 5' : workUs > 0 ? `node:http computing ${Math.round(workUs)} µs a request` : 'bare node:http';
  const child = startChild(name, process.execPath, [...tsx, join(root, 'bench', 'peers', `bare-${kind}.ts`)], {
    url: `http://127.0.0.1:${port}`,
    env: { PORT: String(port), BENCH_FIXTURES: file, BENCH_WORK_US: String(workUs) },
  });
  await waitUntilAnswering(child, '/', { timeoutMs: 30_000 });
  return child;
}
