/**
 * The bench's plumbing: child processes on free loopback ports, waiting for them to answer,
 * their resident memory, bounded autocannon runs (closed loop) and the open loop of a fixed rate.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { profileClockUs } from './profile.ts';

export const root = resolve(import.meta.dirname, '..');
export const bin = (name: string) => join(root, 'node_modules', '.bin', name);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
  options: { connections: number; durationS: number; warmupS?: number; amount?: number; pid?: number | undefined },
): Promise<LoadResult> {
  const run = (durationS: number, amount?: number) =>
    autocannon({
      url,
      connections: options.connections,
      duration: durationS,
      ...(amount ? { amount } : {}),
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
 * Sends one request of a scenario on `agent` and resolves when its answer has been read:
 * its status and the instant it ended (performance.now()). A request over 30 s is an error.
 */
function sendOne(url: string, r: LoadRequest, agent: Agent, context: Record<string, unknown>): Promise<{ status: number; endedAt: number }> {
  return new Promise((resolveOne, reject) => {
    const prepared = (r.setupRequest ? r.setupRequest({ path: r.path, ...(r.body !== undefined ? { body: r.body } : {}) }, context) : r) as { path: string; body?: string };
    const req = httpRequest(url + prepared.path, { method: r.method ?? 'GET', agent, headers: { ...(prepared.body !== undefined ? { 'content-type': 'application/json' } : {}), ...r.headers }, timeout: 30_000 }, (res) => {
      res.resume();
      res.once('end', () => resolveOne({ status: res.statusCode ?? 0, endedAt: performance.now() }));
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    req.end(prepared.body);
  });
}

/** CPU ms a process spent between two readings of `cpuMs`; undefined when either failed. */
const cpuSpent = (before: number | undefined, after: number | undefined) => (before === undefined || after === undefined ? undefined : after - before);

/** A LoadResult from the latencies (ms) of the completed requests of a run of `seconds`, in which the server spent `cpuMsUsed`. */
function summarizeLatencies(latencies: number[], counts: { errors: number; non2xx: number }, seconds: number, cpuMsUsed: number | undefined): LoadResult {
  const done = latencies.length;
  return {
    requestsPerSecond: done / seconds,
    mean: done ? latencies.reduce((a, b) => a + b, 0) / done : NaN,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: done ? Math.max(...latencies) : NaN,
    requests: done,
    cpuUsPerRequest: cpuMsUsed === undefined || done === 0 ? undefined : (cpuMsUsed * 1000) / done,
    errors: counts.errors,
    non2xx: counts.non2xx,
    durationS: seconds,
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
  const once = async () => {
    const started = performance.now();
    const { status, endedAt } = await sendOne(url, r, agent, context);
    return { status, ms: endedAt - started };
  };
  try {
    const warming = performance.now();
    for (let i = 0; i < (options.warmup ?? 0) && performance.now() - warming < 1000; i++) await once().catch(() => undefined);
    const latencies: number[] = [];
    const counts = { errors: 0, non2xx: 0 };
    const before = cpuMs(options.pid);
    const started = performance.now();
    while (latencies.length + counts.errors < options.maxRequests && performance.now() - started < options.maxMs) {
      try {
        const { status, ms } = await once();
        latencies.push(ms);
        if (status < 200 || status > 299) counts.non2xx++;
      } catch {
        counts.errors++;
      }
    }
    return summarizeLatencies(latencies, counts, (performance.now() - started) / 1000, cpuSpent(before, cpuMs(options.pid)));
  } finally {
    agent.destroy();
  }
}

/** One open-loop run before it is summarized: what `pooledOpenLoop` adds up over rounds. */
export interface OpenLoopRun {
  /** ms from each completed request's due instant to its answer's end. */
  latencies: number[];
  counts: { errors: number; non2xx: number };
  seconds: number;
  /** The server's CPU ms over the run; undefined when it could not be read. */
  cpuMsUsed: number | undefined;
}

/**
 * An open loop: one request every 1/`rate` s, evenly spaced, whatever the answers' pace, over
 * at most `connections` keep-alive connections, for `durationS` seconds (after `warmupS` not
 * counted). Each latency counts from the instant its request was due, so a request that waited
 * for a free connection or for the server counts that wait (no coordinated omission), to the
 * microsecond.
 *
 * autocannon's `overallRate` is not an open loop: each connection gets a quota per second and
 * sends it back to back from the second's start (lib/httpClient.js resets `reqsMadeThisSecond`
 * on a 1 s interval), so 500 requests/s on 20 connections is a closed-loop burst of 500 and then
 * silence: its p99 is the burst's queue, not what a steady 500 requests/s meets.
 *
 * `until`: the measured run sends only until it settles (at most `durationS`), so the run
 * covers another client's long request (a clock advance) and no more.
 */
export async function openLoopRun(
  url: string,
  requests: LoadRequest[],
  options: { rate: number; connections: number; durationS: number; warmupS?: number; pid?: number | undefined; until?: Promise<unknown> },
): Promise<OpenLoopRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const context: Record<string, unknown> = {};
  const interval = 1000 / options.rate;
  const run = async (durationS: number, until?: Promise<unknown>) => {
    let ended = false;
    void until?.then(
      () => void (ended = true),
      () => void (ended = true),
    );
    const latencies: number[] = [];
    const counts = { errors: 0, non2xx: 0 };
    const total = Math.round(durationS * options.rate);
    const answered: Promise<void>[] = [];
    const start = performance.now();
    let sent = 0;
    await new Promise<void>((allSent) => {
      const tick = () => {
        for (let due = start + sent * interval; sent < total && !ended && due <= performance.now(); due = start + sent * interval) {
          const request = requests[sent % requests.length]!;
          sent++;
          answered.push(
            sendOne(url, request, agent, context).then(
              ({ status, endedAt }) => {
                latencies.push(endedAt - due);
                if (status < 200 || status > 299) counts.non2xx++;
              },
              () => void counts.errors++,
            ),
          );
        }
        if (sent < total && !ended) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
        else allSent();
      };
      tick();
    });
    await Promise.all(answered);
    return { latencies, counts, seconds: (performance.now() - start) / 1000 };
  };
  try {
    if (options.warmupS) await run(options.warmupS);
    const before = cpuMs(options.pid);
    const measured = await run(options.durationS, options.until);
    return { ...measured, cpuMsUsed: cpuSpent(before, cpuMs(options.pid)) };
  } finally {
    agent.destroy();
  }
}

/**
 * Several open-loop runs of one server as one: their latencies pooled, so the p99 is that of
 * every request of every round. One run's p99 at 500 requests/s is its 25 slowest requests of
 * 2,500, which one stall of the machine (20 ms holds up 10 requests and those queued behind
 * them) decides for whichever server it falls on; rounds in turn spread the stalls over the
 * servers, and pooling counts them in proportion.
 */
export function pooledOpenLoop(runs: OpenLoopRun[]): LoadResult {
  const sum = (of: (run: OpenLoopRun) => number) => runs.reduce((total, run) => total + of(run), 0);
  return summarizeLatencies(
    runs.flatMap((run) => run.latencies),
    { errors: sum((run) => run.counts.errors), non2xx: sum((run) => run.counts.non2xx) },
    sum((run) => run.seconds),
    runs.some((run) => run.cpuMsUsed === undefined) ? undefined : sum((run) => run.cpuMsUsed!),
  );
}

/**
 * Of one server's rounds of a scenario, the one of median CPU per request (the lower middle
 * of an even count), or of median req/s when its CPU is unknown: a whole run, so its
 * figures, profile window included, stay each other's.
 */
export function medianRun(runs: LoadResult[]): LoadResult | undefined {
  const byCpu = runs.every((r) => r.cpuUsPerRequest !== undefined);
  const cost = (r: LoadResult) => (byCpu ? r.cpuUsPerRequest! : -r.requestsPerSecond);
  return [...runs].sort((a, b) => cost(a) - cost(b))[Math.floor((runs.length - 1) / 2)];
}

/** What the report shows of each round: its req/s and CPU per request. */
export const roundOf = (r: LoadResult) => ({ requestsPerSecond: r.requestsPerSecond, cpuUsPerRequest: r.cpuUsPerRequest });

export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};

export const median = (values: number[]) => percentile(values, 50);
