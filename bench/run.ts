/**
 * npm run bench: every measurement of issue 9 in one run, on loopback, written to
 * bench/results.json and bench/results.md with the verdict of every target.
 *
 *   BENCH_DURATION=5      seconds measured per scenario and server (after BENCH_WARMUP=1)
 *   BENCH_CONNECTIONS=20  concurrent keep-alive connections
 *   BENCH_ORDERS=1000000  the large scale of the scaling runs (the small one is 1,000)
 *   BENCH_SCALING_MS=3000 time per scaling scenario (one request at a time)
 *   BENCH_ONLY=footprint,throughput,scaling,webhooks,generate   a subset of the sections
 *   BENCH_SCENARIOS=quoteOrder,…  a subset of the throughput scenarios, by id (bench/scenarios.ts),
 *                         to measure one lever on one scenario without the others' minutes
 *   BENCH_PROFILE=<dir>   our servers write V8 CPU profiles there (open in Chrome DevTools): after
 *                         each throughput scenario's rounds, a profiled validated server runs it
 *                         once more, its profile in <dir>/<scenario>, summarized in
 *                         bench/results.md (bench/profile.ts); the rounds measure it unprofiled
 *   BENCH_OPEN_RATE=500   the open-loop runs' offered rate, requests/s evenly spaced (lib.ts openLoopRun)
 *   BENCH_ROUNDS=3        rounds: each scenario runs on every server in turn this many times; in the
 *                         closed loop each server's round of median CPU per request is the one
 *                         shown, in the open loop every round's requests are pooled
 *   DATABASE_URL=…        the PostgreSQL server for the PostgreSQL scaling run (a database
 *                         is created in it and dropped); without it the bench uses the one
 *                         on BENCH_PG_PORT=55509 if it answers, else starts one there with
 *                         scripts/postgres.sh (and stops it), else skips that run
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { formatApiKey, newKeyId } from '../server/features/apiKeys/rules.ts';
import { cpuMs, load, median, medianRun, openLoopRun, pooledOpenLoop, roundOf, root, rssMb, sampleRss, sequential, sleep, waitUntilAnswering, type Child, type LoadRequest, type LoadResult, type OpenLoopRun } from './lib.ts';
import type { Fixture } from './peers/fixtures.ts';
import { profileIn, summarizeProfile } from './profile.ts';
import { renderMarkdown, verdicts, withBenchSummary, type Results, type ScalingRow, type ThroughputRow } from './report.ts';
import { capture, getOrder, onrampQuote, quoteAndOrder, throughputScenarios, type Scenario, type World } from './scenarios.ts';
import { sampleOrders, seedOrders, type Database } from './seed.ts';
import { bundleServer, startOurs, startPeer, startPrism, targetLabels, type TargetId } from './targets.ts';
import { measureDrain, measureLatency, outboxWriter, startReceiver } from './webhooks.ts';

const env = process.env;
const options = {
  durationS: Number(env.BENCH_DURATION ?? 5),
  warmupS: Number(env.BENCH_WARMUP ?? 1),
  connections: Number(env.BENCH_CONNECTIONS ?? 20),
  smallOrders: 1_000,
  largeOrders: Number(env.BENCH_ORDERS ?? 1_000_000),
  customers: 10,
  /** Time spent on each scaling scenario (one request at a time). */
  scalingMs: Number(env.BENCH_SCALING_MS ?? 3000),
  /** Open loop: the offered rate of a partner's CI or a modest load test (issue 17). */
  openRate: Number(env.BENCH_OPEN_RATE ?? 500),
  /** A machine whose speed drifts within minutes moves one 5 s run of a server by a third; rounds in turn cancel it. */
  rounds: Math.max(1, Math.round(Number(env.BENCH_ROUNDS ?? 3))),
  profile: env.BENCH_PROFILE,
  sections: new Set((env.BENCH_ONLY ?? 'footprint,throughput,scaling,webhooks,generate').split(',').map((s) => s.trim())),
  scenarios: env.BENCH_SCENARIOS ? new Set(env.BENCH_SCENARIOS.split(',').map((s) => s.trim())) : undefined,
};

const work = mkdtempSync(join(tmpdir(), 'ramp-bench-'));
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
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

const newIdentity = () => {
  const partnerId = randomUUID();
  return { partnerId, key: formatApiKey('sand', newKeyId(), partnerId) };
};

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

/** One real order through the API: the template the seeding copies. */
async function makeTemplateOrder(url: string, world: World): Promise<{ orderId?: string; order?: Record<string, unknown>; problem?: string }> {
  const { fixtures, statuses } = await capture(url, quoteAndOrder.requests(world));
  if (statuses[0] !== 201 || (statuses[1] !== 201 && statuses[1] !== 200)) {
    return { problem: `quote + order answered ${statuses.join(', ')}: ${fixtures.map((f) => f.body.slice(0, 300)).join(' | ')}` };
  }
  const order = JSON.parse(fixtures[1]!.body) as Record<string, unknown>;
  return { orderId: order.id as string, order };
}

// ─── footprint ────────────────────────────────────────────────────────────────────────────

async function footprint() {
  log('footprint: cold starts on an empty database');
  const coldStarts: number[] = [];
  const coldStartCpu: number[] = [];
  let idleRssMb: number | undefined;
  for (let i = 0; i < 3; i++) {
    const dataDir = join(work, `cold-${i}`);
    const server = await ours({ engine: 'sqlite', dataDir }, newIdentity());
    coldStarts.push(server.readyMs);
    coldStartCpu.push(cpuMs(server.process.pid) ?? NaN);
    if (i === 2) {
      await sleep(3000);
      idleRssMb = rssMb(server.process.pid);
    }
    await stop(server);
  }
  results.footprint = { ...results.footprint, coldStartMs: median(coldStarts), coldStartsMs: coldStarts, coldStartCpuMs: median(coldStartCpu), idleRssMb };
  results.notes.push(`Cold start runs dist/server.js; npm start first bundles it (scripts/build-server.mjs), which took ${Math.round(bundleServer())} ms in this run.`);
}

function generateTime() {
  log('footprint: npm run generate (timed as check:generated, which builds the same files without writing generated/)');
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'generate.ts'), '--check'], { cwd: root, stdio: 'ignore', timeout: 600_000 });
  const seconds = (performance.now() - started) / 1000;
  results.footprint = { ...results.footprint, generateSeconds: seconds, generateUpToDate: run.status === 0 };
}

// ─── throughput ───────────────────────────────────────────────────────────────────────────

async function throughput() {
  const template = join(work, 'throughput-template');
  const identity = newIdentity();
  const world: World = { ...identity, orders: [] };
  // 1. The data set: 1,000 orders copied from one made through the API.
  const server = await ours({ engine: 'sqlite', dataDir: template }, identity);
  const made = await makeTemplateOrder(server.url, world);
  await stop(server);
  if (made.orderId) {
    const seeded = await seedOrders({ engine: 'sqlite', dataDir: template }, { partnerId: identity.partnerId, templateOrderId: made.orderId, customers: options.customers, total: options.smallOrders });
    world.orders = await sampleOrders({ engine: 'sqlite', dataDir: template }, 1000);
    world.customerId = seeded.customerIds[0];
  } else {
    results.notes.push(`order scenarios not measured: ${made.problem}`);
  }

  // 2. What each scenario answers on our validated server: the peers answer the same bytes.
  const fixtures = new Map<string, Fixture[]>();
  const usable: Scenario[] = [];
  const copy = (name: string) => {
    const dir = join(work, name);
    cpSync(template, dir, { recursive: true });
    return dir;
  };

  // Every server runs from the start, and each scenario runs on each in turn, so a drift in
  // the machine's other load falls on all of them alike. Ours validated goes first: the
  // peers answer what it answered.
  const targets: TargetId[] = ['validated', 'unvalidated', 'prism', 'express', 'http'];
  const children = new Map<TargetId, Child>();
  const validated = await ours({ engine: 'sqlite', dataDir: copy('throughput-validated') }, identity, true);
  children.set('validated', validated);
  for (const scenario of throughputScenarios) {
    if (options.scenarios && !options.scenarios.has(scenario.id)) continue;
    if (scenario.needsOrders && world.orders.length === 0) continue;
    const { fixtures: captured, statuses } = await capture(validated.url, scenario.requests(world));
    if (statuses.every((s) => s >= 200 && s < 300)) {
      usable.push(scenario);
      fixtures.set(scenario.id, captured);
    } else {
      results.notes.push(`${scenario.label} not measured: our server answered ${statuses.join(', ')} (${captured.map((f) => f.body.slice(0, 200)).join(' | ')})`);
    }
  }
  children.set('unvalidated', await ours({ engine: 'sqlite', dataDir: copy('throughput-unvalidated') }, identity, false));
  children.set('prism', await track(startPrism()));
  for (const peer of ['express', 'http'] as const) children.set(peer, await track(startPeer(peer, usable.flatMap((s) => fixtures.get(s.id)!), work)));

  let peak = 0;
  const validatedDir = join(work, 'throughput-validated');
  for (const scenario of usable) {
    const requests = scenario.requests(world);
    // Every server takes its turn in each round, so a drift of the machine's speed falls on
    // all of them alike; each is then shown by its round of median CPU per request.
    const rounds = new Map<TargetId, LoadResult[]>();
    for (const target of targets) {
      const check = await capture(children.get(target)!.url, requests);
      if (check.statuses.every((s) => s >= 200 && s < 300)) rounds.set(target, []);
      else results.notes.push(`${targetLabels[target]} on ${scenario.label}: answered ${check.statuses.join(', ')}; not measured`);
    }
    for (let round = 1; round <= options.rounds; round++) {
      for (const [target, runs] of rounds) {
        const child = children.get(target)!;
        log(`throughput: ${scenario.label} · ${targetLabels[target]} (round ${round} of ${options.rounds})`);
        const rss = target === 'validated' ? sampleRss(child.process.pid) : undefined;
        runs.push(await load(child.url, requests, { connections: options.connections, durationS: options.durationS, warmupS: options.warmupS, pid: child.process.pid }));
        if (rss) peak = Math.max(peak, rss.stop());
      }
    }
    for (const target of targets) {
      const runs = rounds.get(target);
      results.throughput.push({ scenario: scenario.id, label: scenario.label, read: scenario.read, target, result: runs && medianRun(runs), ...(runs ? { rounds: runs.map(roundOf) } : {}) });
    }
    // Open loop: a fixed offered rate, the latency a partner's CI sees (reads only). Beside
    // ours: bare Express (the framework's floor), bare node:http (the machine's) and (f),
    // node:http computing on each request for as long as ours cost more than bare node:http
    // in the closed loop just measured. (f) is as costly as ours with none of its variance:
    // where it misses too, only a lower cost per request can make the target hold here.
    if (scenario.read) {
      const extraUs = (find(results.throughput, scenario.id, 'validated')?.cpuUsPerRequest ?? NaN) - (find(results.throughput, scenario.id, 'http')?.cpuUsPerRequest ?? NaN);
      if (extraUs > 0) children.set('costed', await track(startPeer('http', fixtures.get(scenario.id)!, work, extraUs)));
      else results.notes.push(`${targetLabels.costed} on ${scenario.label}: not measured, for want of ours' closed-loop CPU per request over bare node:http's (${extraUs} µs)`);
      // Rounds in turn, as in the closed loop: a stall of the machine falls on whichever server
      // runs then, and pooling the rounds counts it for the requests it held up (lib.ts pooledOpenLoop).
      const runs = new Map<TargetId, OpenLoopRun[]>();
      for (let round = 1; round <= options.rounds; round++) {
        for (const target of ['validated', 'express', 'http', 'costed'] as const) {
          const child = children.get(target);
          if (!child) continue;
          log(`open loop ${options.openRate}/s: ${scenario.label} · ${targetLabels[target]} (round ${round} of ${options.rounds})`);
          const run = await openLoopRun(child.url, requests, { rate: options.openRate, connections: options.connections, durationS: options.durationS, warmupS: options.warmupS, pid: child.process.pid });
          runs.set(target, [...(runs.get(target) ?? []), run]);
        }
      }
      for (const [target, list] of runs) {
        const eachRound = list.map((run) => {
          const alone = pooledOpenLoop([run]);
          return { ...roundOf(alone), p99: alone.p99 };
        });
        results.openLoop!.push({ scenario: scenario.id, label: scenario.label, read: true, target, result: pooledOpenLoop(list), rounds: eachRound, ...(target === 'costed' ? { workUs: extraUs } : {}) });
      }
      await stop(children.get('costed'));
      children.delete('costed');
    }
    // The profile: a validated server of its own runs the scenario once more, so its profile
    // holds that scenario only. The rounds above measured the server as npm start runs it:
    // the sampling profiler costs it about 7 % of its CPU, which no peer pays.
    if (options.profile) {
      const profileDir = join(options.profile, scenario.id);
      mkdirSync(profileDir, { recursive: true });
      await stop(children.get('validated'));
      const profiled = await ours({ engine: 'sqlite', dataDir: validatedDir }, identity, true, profileDir);
      log(`profile: ${scenario.label} · ${targetLabels.validated}`);
      const run = await load(profiled.url, requests, { connections: options.connections, durationS: options.durationS, warmupS: options.warmupS, pid: profiled.process.pid });
      await stop(profiled);
      const file = profileIn(profileDir);
      if (file && run.windowUs) results.profiles!.push({ scenario: scenario.id, label: scenario.label, requests: run.requests, summary: summarizeProfile(file, run.windowUs, run.requests) });
      children.set('validated', await ours({ engine: 'sqlite', dataDir: validatedDir }, identity, true));
    }
  }
  for (const child of children.values()) await stop(child);
  results.footprint = { ...results.footprint, loadRssMb: peak };
}

const find = (rows: ThroughputRow[], scenario: string, target: TargetId) => rows.find((r) => r.scenario === scenario && r.target === target)?.result;

// ─── scaling ──────────────────────────────────────────────────────────────────────────────

function scalingScenarios(world: World, lastPage: number): (Scenario & { informational?: boolean })[] {
  const list = (id: string, label: string, query: string, informational = false) => ({
    id,
    label,
    read: true,
    informational,
    requests: (w: World): LoadRequest[] => [{ path: `/orders?${query}`, headers: { authorization: w.key } }],
  });
  return [
    list('listFirst', 'GET /orders, first page', 'pageSize=30'),
    list('listDeep', 'GET /orders, page 33 (orders 991–1,020)', 'pageSize=30&pageNumber=33'),
    list('listCustomerFirst', 'GET /orders?organizationId=customer, first page', `pageSize=30&organizationId=${world.customerId}`),
    list('listCustomerDeep', 'GET /orders?organizationId=customer, page 2', `pageSize=30&pageNumber=2&organizationId=${world.customerId}`),
    { ...getOrder, id: 'getOrder', label: 'GET /organization/{id}/order/{id}, random stored order' },
    list('listLast', 'GET /orders, last full page (the oldest orders)', `pageSize=30&pageNumber=${lastPage}`),
  ];
}

async function scaling(engine: 'sqlite' | 'postgres', adminUrl?: string) {
  let database: Database;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (engine === 'sqlite') {
    database = { engine, dataDir: join(work, 'scaling-sqlite') };
  } else {
    const name = `ramp_bench_${randomUUID().slice(0, 8)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    database = { engine, url: url.toString() };
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    };
  }
  try {
    const identity = newIdentity();
    const world: World = { ...identity, orders: [] };
    let server = await ours(database, identity);
    const made = await makeTemplateOrder(server.url, world);
    await stop(server);
    if (!made.orderId) {
      results.notes.push(`scaling on ${engine} not measured: ${made.problem}`);
      return;
    }
    const measured = new Map<number, Map<string, LoadResult>>();
    for (const total of [options.smallOrders, options.largeOrders]) {
      log(`scaling (${engine}): seeding ${total.toLocaleString('en')} orders`);
      const seeded = await seedOrders(database, { partnerId: identity.partnerId, templateOrderId: made.orderId, customers: options.customers, total });
      log(`scaling (${engine}): ${seeded.inserted.toLocaleString('en')} inserted in ${seeded.seconds.toFixed(1)} s`);
      results.seeding = { ...results.seeding, [`${engine}-${total}`]: { inserted: seeded.inserted, seconds: seeded.seconds } };
      world.customerId = seeded.customerIds[0];
      world.orders = await sampleOrders(database, 1000);
      server = await ours(database, identity);
      const byScenario = new Map<string, LoadResult>();
      for (const scenario of scalingScenarios(world, Math.floor(total / 30) - 1)) {
        const requests = scenario.requests(world);
        const check = await capture(server.url, requests);
        if (!check.statuses.every((s) => s === 200)) {
          results.notes.push(`scaling ${engine} ${total}: ${scenario.label} answered ${check.statuses.join(', ')}: ${check.fixtures[0]?.body.slice(0, 200)}`);
          continue;
        }
        log(`scaling (${engine}, ${total.toLocaleString('en')}): ${scenario.label}`);
        byScenario.set(scenario.id, await sequential(server.url, requests[0]!, { maxRequests: 2000, maxMs: options.scalingMs, warmup: 20, pid: server.process.pid }));
      }
      await stop(server);
      measured.set(total, byScenario);
    }
    for (const scenario of scalingScenarios(world, 0)) {
      const small = measured.get(options.smallOrders)?.get(scenario.id);
      const large = measured.get(options.largeOrders)?.get(scenario.id);
      const row: ScalingRow = { engine, scenario: scenario.id, label: scenario.label, informational: !!scenario.informational, small, large };
      results.scaling.push(row);
    }
  } finally {
    await dropDatabase?.();
  }
}

/** The PostgreSQL server to use: DATABASE_URL, the bench's own if it is up, one started here, or none. */
async function postgresServer(): Promise<{ url?: string; stop?: () => void; why?: string }> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL };
  const script = join(root, 'scripts', 'postgres.sh');
  const dir = join(tmpdir(), 'pg-bench');
  const port = env.BENCH_PG_PORT ?? '55509';
  const running = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const client = new pg.Client({ connectionString: running, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return { url: running };
  } catch {
    // not running: start it below
  }
  try {
    const url = execFileSync(script, ['start', dir, port], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    return { url, stop: () => void spawnSync(script, ['stop', dir], { stdio: 'ignore' }) };
  } catch (error) {
    return { why: `PostgreSQL scaling not measured: ${(error as { stderr?: string }).stderr?.toString().trim() || (error as Error).message}` };
  }
}

// ─── webhooks ─────────────────────────────────────────────────────────────────────────────

async function webhooks() {
  const dataDir = join(work, 'webhooks');
  const identity = newIdentity();
  const world: World = { ...identity, orders: [] };
  const receiver = await startReceiver();
  let server = await ours({ engine: 'sqlite', dataDir }, identity);
  try {
    const subscribed = await fetch(`${server.url}/webhook_subscription`, {
      method: 'POST',
      headers: { authorization: identity.key, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, eventType: 'orderUpdated' }),
    });
    const subscription = (await subscribed.json()) as { secret?: string };
    if (subscribed.status !== 201 || !subscription.secret) {
      results.notes.push(`webhooks not measured: POST /webhook_subscription answered ${subscribed.status}`);
      return;
    }
    receiver.secret = subscription.secret;
    const made = await makeTemplateOrder(server.url, world);
    const order = made.order ?? exampleOrder(identity.partnerId);
    const writer = await outboxWriter({ dataDir }, identity.partnerId, order);
    try {
      log('webhooks: change → first attempt, 200 events 20 ms apart');
      const latency = await measureLatency(writer, receiver, { count: 200, spacingMs: 20, waitMs: 15_000 });
      await stop(server);
      const backlog = 3000;
      log(`webhooks: a backlog of ${backlog} events drained by a fresh server`);
      await writer.recordMany(backlog);
      const before = receiver.arrivals.size;
      server = await ours({ engine: 'sqlite', dataDir }, identity);
      const drain = await measureDrain(receiver, before, backlog, 60_000, server.process.pid);
      results.webhooks = { latency, drain, attempts: receiver.attempts, badSignatures: receiver.badSignatures };
    } finally {
      await writer.close();
    }
  } finally {
    await stop(server);
    await receiver.close();
  }
}

function exampleOrder(organizationId: string) {
  return { ...onrampQuote, id: randomUUID(), status: 'funded', organizationId, quoteId: randomUUID() };
}

// ─── main ─────────────────────────────────────────────────────────────────────────────────

async function main() {
  const sections = options.sections;
  log(`work directory ${work}; load average ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores`);
  if (sections.has('footprint')) await footprint();
  if (sections.has('throughput')) await throughput();
  if (sections.has('scaling')) {
    await scaling('sqlite');
    const postgres = await postgresServer();
    if (postgres.url) {
      try {
        await scaling('postgres', postgres.url);
      } finally {
        postgres.stop?.();
      }
    } else {
      results.notes.push(postgres.why!);
    }
  }
  if (sections.has('webhooks')) await webhooks();
  if (sections.has('generate')) generateTime();
  results.finishedAt = new Date().toISOString();
  results.machine.loadAfter = loadavg()[0]!;
  results.targets = verdicts(results);
  const markdown = renderMarkdown(results);
  mkdirSync(join(root, 'bench'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(root, 'bench', 'results.md'), markdown);
  // The README shows the latest full run only: a subset would show "not measured" rows.
  if (!env.BENCH_ONLY && !env.BENCH_SCENARIOS) {
    const readme = join(root, 'README.md');
    writeFileSync(readme, withBenchSummary(readFileSync(readme, 'utf8'), results));
  }
  process.stdout.write(`\n${markdown}\n`);
}

const cleanup = async () => {
  await Promise.all([...running].map((c) => c.stop()));
  if (existsSync(work)) rmSync(work, { recursive: true, force: true });
};

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanup().then(() => process.exit(130)));
}

try {
  await main();
} finally {
  await cleanup();
}
