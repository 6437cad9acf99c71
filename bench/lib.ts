/**
 * The bench's plumbing: child processes on free loopback ports, waiting for them to answer,
 * their resident memory, and bounded autocannon runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { profileClockUs } from './profile.ts';

export const root = resolve(import.meta.dirname, '..');
export const bin = (name: string) => join(root, 'node_modules', '.bin', name);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

export interface Child {
  name: string;
  process: ChildProcess;
  url: string;
  /** Everything the child wrote, for the error message when it fails. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts a command; `url` is where it will listen. Stopping sends SIGTERM, then SIGKILL after 5 s. */
export function startChild(name: string, command: string, args: string[], options: { env?: NodeJS.ProcessEnv; url: string }): Child {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    name,
    process: child,
    url: options.url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `url + path` until it answers `status` (any status when undefined); ms from `since`. */
export async function waitUntilAnswering(
  child: Child,
  path: string,
  options: { since?: number; timeoutMs?: number; status?: number; headers?: Record<string, string> } = {},
): Promise<number> {
  const since = options.since ?? performance.now();
  const deadline = since + (options.timeoutMs ?? 60_000);
  while (performance.now() < deadline) {
    if (child.process.exitCode !== null) throw new Error(`${child.name} exited (${child.process.exitCode}):\n${child.output()}`);
    try {
      const response = await fetch(child.url + path, { headers: options.headers, signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (options.status === undefined || response.status === options.status) return performance.now() - since;
    } catch {
      // not listening yet
    }
    await sleep(5);
  }
  throw new Error(`${child.name} did not answer ${path} within ${options.timeoutMs ?? 60_000} ms:\n${child.output()}`);
}

/** Resident set size of a process in MB (Linux /proc), or undefined elsewhere. */
export function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used, in ms (Linux /proc), or undefined elsewhere. */
export function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return undefined;
  }
}

const clockTicks = 100;

/** Samples a process's RSS every 100 ms until stopped; returns the peak in MB. */
export function sampleRss(pid: number | undefined) {
  let peak = rssMb(pid) ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid) ?? 0);
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMb(pid) ?? 0);
    },
  };
}

export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** Sets the path or body of each request from the per-connection context. */
  setupRequest?: (request: { path: string; body?: string }, context: Record<string, unknown>) => unknown;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Mean latency in ms (autocannon's percentiles are whole milliseconds). */
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requests: number;
  /** The server's CPU time per request in µs: unlike req/s, barely moved by other load on the machine. */
  cpuUsPerRequest: number | undefined;
  errors: number;
  non2xx: number;
  durationS: number;
  /** The measured run on the clock CPU profiles use (bench/profile.ts), in µs. */
  windowUs?: { fromUs: number; toUs: number };
}

/**
 * One autocannon run: `connections` keep-alive connections for `durationS` seconds (or
 * `amount` requests, whichever comes first), after `warmupS` seconds not counted.
 */
export async function load(
  url: string,
  requests: LoadRequest[],
  options: { connections: number; durationS: number; warmupS?: number; amount?: number; pid?: number | undefined; overallRate?: number },
): Promise<LoadResult> {
  const run = (durationS: number, amount?: number) =>
    autocannon({
      url,
      connections: options.connections,
      duration: durationS,
      ...(amount ? { amount } : {}),
      // Open loop: requests at a fixed rate over all connections, whatever the answers' pace.
      ...(options.overallRate ? { overallRate: options.overallRate } : {}),
      timeout: 10,
      requests: requests.map((r) => ({
        method: r.method ?? 'GET',
        path: r.path,
        ...(r.body !== undefined ? { body: r.body } : {}),
        headers: { ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}), ...r.headers },
        ...(r.setupRequest ? { setupRequest: r.setupRequest } : {}),
        ...(r.onResponse ? { onResponse: r.onResponse } : {}),
      })),
    } as autocannon.Options);
  if (options.warmupS) await run(options.warmupS);
  const cpuBefore = cpuMs(options.pid);
  const fromUs = profileClockUs();
  const result = await run(options.durationS, options.amount);
  const toUs = profileClockUs();
  const cpuAfter = cpuMs(options.pid);
  return {
    windowUs: { fromUs, toUs },
    requestsPerSecond: result.requests.total / result.duration,
    mean: result.latency.mean,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    cpuUsPerRequest: cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0 ? undefined : ((cpuAfter - cpuBefore) * 1000) / result.requests.total,
    errors: result.errors,
    non2xx: result.non2xx,
    durationS: result.duration,
  };
}

/**
 * One request at a time on one keep-alive connection, timed to the microsecond: the latency
 * of the request itself, without queueing (autocannon's histogram counts whole milliseconds).
 * Stops after `maxRequests` or `maxMs`, whichever comes first; a request over 30 s is an error.
 */
export async function sequential(url: string, r: LoadRequest, options: { maxRequests: number; maxMs: number; warmup?: number; pid?: number | undefined }): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const context: Record<string, unknown> = {};
  const once = () =>
    new Promise<{ status: number; ms: number }>((resolveOne, reject) => {
      const prepared = (r.setupRequest ? r.setupRequest({ path: r.path, ...(r.body !== undefined ? { body: r.body } : {}) }, context) : r) as { path: string; body?: string };
      const started = performance.now();
      const req = httpRequest(url + prepared.path, { method: r.method ?? 'GET', agent, headers: { ...(prepared.body !== undefined ? { 'content-type': 'application/json' } : {}), ...r.headers }, timeout: 30_000 }, (res) => {
        res.resume();
        res.once('end', () => resolveOne({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      });
      req.once('timeout', () => req.destroy(new Error('timeout')));
      req.once('error', reject);
      req.end(prepared.body);
    });
  try {
    const warming = performance.now();
    for (let i = 0; i < (options.warmup ?? 0) && performance.now() - warming < 1000; i++) await once().catch(() => undefined);
    const latencies: number[] = [];
    let errors = 0;
    let non2xx = 0;
    const cpuBefore = cpuMs(options.pid);
    const started = performance.now();
    while (latencies.length + errors < options.maxRequests && performance.now() - started < options.maxMs) {
      try {
        const { status, ms } = await once();
        latencies.push(ms);
        if (status < 200 || status > 299) non2xx++;
      } catch {
        errors++;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = cpuMs(options.pid);
    const done = latencies.length;
    return {
      requestsPerSecond: done / seconds,
      mean: done ? latencies.reduce((a, b) => a + b, 0) / done : NaN,
      p50: percentile(latencies, 50),
      p90: percentile(latencies, 90),
      p99: percentile(latencies, 99),
      max: done ? Math.max(...latencies) : NaN,
      requests: done,
      cpuUsPerRequest: cpuBefore === undefined || cpuAfter === undefined || done === 0 ? undefined : ((cpuAfter - cpuBefore) * 1000) / done,
      errors,
      non2xx,
      durationS: seconds,
    };
  } finally {
    agent.destroy();
  }
}

export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};

export const median = (values: number[]) => percentile(values, 50);
