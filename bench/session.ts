/**
 * What the sections of one `npm run bench` share (footprint.ts, throughput.ts, scaling.ts,
 * webhooks.ts, isolation.ts, flows.ts, designerLoop.ts): the options read from the environment (run.ts says what each
 * variable does), a work directory, the results every section adds to, and the servers they
 * start, which `cleanup` stops when the run ends or is interrupted.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { formatApiKey, newKeyId } from '../server/features/apiKeys/rules.ts';
import { waitUntilAnswering, type Child } from './lib.ts';
import type { Results } from './report.ts';
import { capture, quoteAndOrder, type World } from './scenarios.ts';
import type { Database } from './seed.ts';
import { startOurs } from './targets.ts';

export function benchOptions(env: NodeJS.ProcessEnv) {
  return {
    durationS: Number(env.BENCH_DURATION ?? 5),
    warmupS: Number(env.BENCH_WARMUP ?? 1),
    connections: Number(env.BENCH_CONNECTIONS ?? 20),
    smallOrders: 1_000,
    /** Isolation: the advancing partner's funding deadlines that fall due within its advance. */
    advanceDeadlines: 1_000,
    largeOrders: Number(env.BENCH_ORDERS ?? 1_000_000),
    customers: 10,
    /** Time spent on each scaling scenario (one request at a time). */
    scalingMs: Number(env.BENCH_SCALING_MS ?? 3000),
    /** Open loop: the offered rate of a partner's CI or a modest load test (issue 17). */
    openRate: Number(env.BENCH_OPEN_RATE ?? 500),
    /** A machine whose speed drifts within minutes moves one 5 s run of a server by a third; rounds in turn cancel it. */
    rounds: Math.max(1, Math.round(Number(env.BENCH_ROUNDS ?? 3))),
    profile: env.BENCH_PROFILE,
    sections: new Set((env.BENCH_ONLY ?? 'footprint,throughput,scaling,webhooks,isolation,flows,designer,generate').split(',').map((s) => s.trim())),
    scenarios: env.BENCH_SCENARIOS ? new Set(env.BENCH_SCENARIOS.split(',').map((s) => s.trim())) : undefined,
  };
}

export type BenchOptions = ReturnType<typeof benchOptions>;

export const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

export function startSession(options: BenchOptions) {
  const work = mkdtempSync(join(tmpdir(), 'ramp-bench-'));
  const running = new Set<Child>();
  const results: Results = {
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      memoryGb: Math.round(totalmem() / 2 ** 30),
      os: `${process.platform} ${release()}`,
      node: process.version,
      loadBefore: loadavg()[0]!,
    },
    startedAt: new Date().toISOString(),
    options: { durationS: options.durationS, warmupS: options.warmupS, connections: options.connections, smallOrders: options.smallOrders, largeOrders: options.largeOrders, openRate: options.openRate, rounds: options.rounds },
    throughput: [],
    openLoop: [],
    profiles: [],
    scaling: [],
    notes: [],
  };

  async function track<T extends Child>(child: Promise<T>): Promise<T> {
    const c = await child;
    running.add(c);
    return c;
  }

  async function stop(child: Child | undefined) {
    if (!child) return;
    await child.stop();
    running.delete(child);
  }

  /** Our server on `database`, answering (so migrations and the seed key are done). */
  async function ours(database: Database, identity: { key: string }, validate = true, profileDir?: string) {
    const server = await track(
      startOurs({
        validate,
        ...(profileDir ? { profileDir } : {}),
        dataDir: database.engine === 'sqlite' ? database.dataDir : ':memory:',
        ...(database.engine === 'postgres' ? { databaseUrl: database.url } : {}),
        seedApiKey: identity.key,
      }),
    );
    const readyMs = await waitUntilAnswering(server, '/lookup/tokens/cost', { since: server.startedAt, status: 200 });
    return Object.assign(server, { readyMs });
  }

  const cleanup = async () => {
    await Promise.all([...running].map((c) => c.stop()));
    if (existsSync(work)) rmSync(work, { recursive: true, force: true });
  };

  return { options, work, results, track, stop, ours, cleanup };
}

export type Session = ReturnType<typeof startSession>;

export const newIdentity = () => {
  const partnerId = randomUUID();
  return { partnerId, key: formatApiKey('sand', newKeyId(), partnerId) };
};

export type Identity = ReturnType<typeof newIdentity>;

/** One real order through the API: the template the seeding copies. */
export async function makeTemplateOrder(url: string, world: World): Promise<{ orderId?: string; order?: Record<string, unknown>; problem?: string }> {
  const { fixtures, statuses } = await capture(url, quoteAndOrder.requests(world));
  if (statuses[0] !== 201 || (statuses[1] !== 201 && statuses[1] !== 200)) {
    return { problem: `quote + order answered ${statuses.join(', ')}: ${fixtures.map((f) => f.body.slice(0, 300)).join(' | ')}` };
  }
  const order = JSON.parse(fixtures[1]!.body) as Record<string, unknown>;
  return { orderId: order.id as string, order };
}
