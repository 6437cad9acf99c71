/**
 * The partner flow suite as a benchmark (issue 35, item 6): the wall time of every flow of the
 * service run as a partner's test suite runs it (test/support/flowSuite.ts, through the typed
 * client, on a frozen sandbox clock), for one partner, and for 8 isolated partners at once on
 * the same sandbox, as parallel CI jobs would run it. Targets: one partner's suite within 5 s,
 * and 8 in parallel within twice one partner's time.
 *
 * One server as `npm start` runs it, on a fresh embedded database. Each suite runs for a
 * partner made for it by the client's `createSandboxPartner` (made before its timer starts,
 * deleted after it stops), as a partner's CI makes one per test file. The suite runs once
 * unmeasured first with the server's own key: a process's first call of each operation
 * compiles that operation's validators, a cost of the first run after a start, not of a suite.
 * Then `rounds` rounds, each one partner alone and then 8 at once; the median round of each
 * is shown, with every round's time.
 */
import { join } from 'node:path';
import { createSandboxPartner } from '../client/index.ts';
import { runFlowSuite, type FlowSuiteResult } from '../test/support/flowSuite.ts';
import type { FlowsResult } from './flowsReport.ts';
import { cpuMs, median } from './lib.ts';
import { log, newIdentity, type Session } from './session.ts';

/** Isolated partners running the suite at once in the parallel measurement. */
export const parallelPartners = 8;

/** The flows section: the suite for one partner, then for 8 in parallel, in rounds. */
export async function flowsBench(session: Session) {
  const { options, results, work } = session;
  const identity = newIdentity();
  const server = await session.ours({ engine: 'sqlite', dataDir: join(work, 'flows') }, identity);
  try {
    const warmup = await runFlowSuite({ baseUrl: server.url, apiKey: identity.key });
    log(`flows: warm-up run ${Math.round(warmup.ms)} ms; ${options.rounds} rounds of 1 partner, then ${parallelPartners} in parallel`);
    const alone: Runs[] = [];
    const parallel: Runs[] = [];
    const pid = server.process.pid;
    for (let round = 0; round < options.rounds; round++) {
      alone.push(await isolatedRuns(server.url, identity.key, 1, pid));
      parallel.push(await isolatedRuns(server.url, identity.key, parallelPartners, pid));
      log(`flows: round ${round + 1}: 1 partner ${Math.round(alone.at(-1)!.ms)} ms, ${parallelPartners} partners ${Math.round(parallel.at(-1)!.ms)} ms`);
    }
    results.flows = summarize(warmup, alone, parallel);
  } catch (error) {
    results.notes.push(`flows not measured: ${(error as Error).message}`);
  } finally {
    await session.stop(server);
  }
}

interface Runs {
  /** First suite's start to last suite's end. */
  ms: number;
  /** CPU time the server process used meanwhile. */
  serverCpuMs: number | undefined;
  /** CPU time this process used meanwhile: the partners' side (clients, receivers, signature checks). */
  clientCpuMs: number;
  suites: FlowSuiteResult[];
}

/**
 * `count` partners made for the run, each running the whole suite, all at once: the wall time
 * from the first suite's start to the last one's end, and the server's CPU time meanwhile
 * (partners made before, deleted after).
 */
async function isolatedRuns(baseUrl: string, apiKey: string, count: number, pid: number | undefined): Promise<Runs> {
  const partners = await Promise.all(Array.from({ length: count }, (_, i) => createSandboxPartner({ baseUrl, apiKey, displayName: `flow bench ${i + 1}` })));
  try {
    const cpuBefore = cpuMs(pid);
    const ownBefore = process.cpuUsage();
    const started = performance.now();
    const suites = await Promise.all(partners.map((p) => runFlowSuite({ baseUrl, apiKey: p.apiKey })));
    const ms = performance.now() - started;
    const cpuAfter = cpuMs(pid);
    const own = process.cpuUsage(ownBefore);
    return { ms, serverCpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore, clientCpuMs: (own.user + own.system) / 1000, suites };
  } finally {
    await Promise.all(partners.map((p) => p.delete()));
  }
}

/** The round of median wall time. */
const medianRound = (runs: Runs[]) => runs.find((r) => r.ms === median(runs.map((x) => x.ms)))!;

function summarize(warmup: FlowSuiteResult, alone: Runs[], parallel: Runs[]): FlowsResult {
  const one = medianRound(alone);
  const many = medianRound(parallel);
  return {
    engine: 'sqlite',
    flows: one.suites[0]!.flows.map((f) => ({ name: f.name, ms: f.ms })),
    warmupMs: warmup.ms,
    onePartner: { ms: one.ms, rounds: alone.map((r) => r.ms), serverCpuMs: one.serverCpuMs, clientCpuMs: one.clientCpuMs },
    parallel: {
      partners: parallelPartners,
      ms: many.ms,
      rounds: parallel.map((r) => r.ms),
      serverCpuMs: many.serverCpuMs,
      clientCpuMs: many.clientCpuMs,
      slowestSuiteMs: Math.max(...parallel.flatMap((r) => r.suites.map((s) => s.ms))),
    },
    webhooksVerified: [...alone, ...parallel].flatMap((r) => r.suites).reduce((n, s) => n + s.webhooksVerified, 0),
  };
}
