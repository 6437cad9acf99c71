/**
 * The throughput section: each scenario (scenarios.ts) on every server compared (targets.ts)
 * in rounds, a closed loop; the reads again as an open loop at a fixed offered rate; and with
 * BENCH_PROFILE, a CPU profile of each scenario on a validated server of its own.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { load, medianRun, openLoopRun, pooledOpenLoop, roundOf, sampleRss, type Child, type LoadRequest, type LoadResult, type OpenLoopRun } from './lib.ts';
import type { Fixture } from './peers/fixtures.ts';
import { profileIn, summarizeProfile } from './profile.ts';
import type { ThroughputRow } from './report.ts';
import { capture, throughputScenarios, type Scenario, type World } from './scenarios.ts';
import { sampleOrders, seedOrders } from './seed.ts';
import { log, makeTemplateOrder, newIdentity, type Identity, type Session } from './session.ts';
import { startPeer, startPrism, targetLabels, type TargetId } from './targets.ts';

/** The running servers, by target. */
type Servers = Map<TargetId, Child>;

/** The closed loop's servers, in the order they take their turns. */
const targets: TargetId[] = ['validated', 'unvalidated', 'prism', 'express', 'http'];

export async function throughput(session: Session) {
  const { work, results } = session;
  const template = join(work, 'throughput-template');
  const identity = newIdentity();
  const world = await dataSet(session, template, identity);

  const copy = (name: string) => {
    const dir = join(work, name);
    cpSync(template, dir, { recursive: true });
    return dir;
  };

  // Every server runs from the start, and each scenario runs on each in turn, so a drift in
  // the machine's other load falls on all of them alike. Ours validated goes first: the
  // peers answer what it answered.
  const children: Servers = new Map();
  const validated = await session.ours({ engine: 'sqlite', dataDir: copy('throughput-validated') }, identity, true);
  children.set('validated', validated);
  const { usable, fixtures } = await answers(session, validated.url, world);
  children.set('unvalidated', await session.ours({ engine: 'sqlite', dataDir: copy('throughput-unvalidated') }, identity, false));
  children.set('prism', await session.track(startPrism()));
  for (const peer of ['express', 'http'] as const) children.set(peer, await session.track(startPeer(peer, usable.flatMap((s) => fixtures.get(s.id)!), work)));

  let peak = 0;
  for (const scenario of usable) {
    const requests = scenario.requests(world);
    peak = Math.max(peak, await closedLoop(session, scenario, requests, children));
    if (scenario.read) await openLoop(session, scenario, requests, children, fixtures);
    if (session.options.profile) await profile(session, scenario, requests, identity, children);
  }
  for (const child of children.values()) await session.stop(child);
  results.footprint = { ...results.footprint, loadRssMb: peak };
}

/** 1. The data set: 1,000 orders copied from one made through the API. */
async function dataSet(session: Session, template: string, identity: Identity): Promise<World> {
  const { options, results } = session;
  const world: World = { ...identity, orders: [] };
  const server = await session.ours({ engine: 'sqlite', dataDir: template }, identity);
  const made = await makeTemplateOrder(server.url, world);
  await session.stop(server);
  if (made.orderId) {
    const seeded = await seedOrders({ engine: 'sqlite', dataDir: template }, { partnerId: identity.partnerId, templateOrderId: made.orderId, customers: options.customers, total: options.smallOrders });
    world.orders = await sampleOrders({ engine: 'sqlite', dataDir: template }, 1000);
    world.customerId = seeded.customerIds[0];
  } else {
    results.notes.push(`order scenarios not measured: ${made.problem}`);
  }
  return world;
}

/** 2. What each scenario answers on our validated server: the peers answer the same bytes. */
async function answers(session: Session, url: string, world: World) {
  const { options, results } = session;
  const fixtures = new Map<string, Fixture[]>();
  const usable: Scenario[] = [];
  for (const scenario of throughputScenarios) {
    if (options.scenarios && !options.scenarios.has(scenario.id)) continue;
    if (scenario.needsOrders && world.orders.length === 0) continue;
    const { fixtures: captured, statuses } = await capture(url, scenario.requests(world));
    if (statuses.every((s) => s >= 200 && s < 300)) {
      usable.push(scenario);
      fixtures.set(scenario.id, captured);
    } else {
      results.notes.push(`${scenario.label} not measured: our server answered ${statuses.join(', ')} (${captured.map((f) => f.body.slice(0, 200)).join(' | ')})`);
    }
  }
  return { usable, fixtures };
}

/** The closed loop of one scenario on every server that answers it; answers the validated server's peak RSS meanwhile. */
async function closedLoop(session: Session, scenario: Scenario, requests: LoadRequest[], children: Servers): Promise<number> {
  const { options, results } = session;
  let peak = 0;
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
  return peak;
}

const find = (rows: ThroughputRow[], scenario: string, target: TargetId) => rows.find((r) => r.scenario === scenario && r.target === target)?.result;

/**
 * Open loop: a fixed offered rate, the latency a partner's CI sees (reads only). Beside
 * ours: bare Express (the framework's floor), bare node:http (the machine's) and (f),
 * node:http computing on each request for as long as ours cost more than bare node:http
 * in the closed loop just measured. (f) is as costly as ours with none of its variance:
 * what ours' p99 has above (f)'s comes from variance, not cost. Shown, not judged.
 */
async function openLoop(session: Session, scenario: Scenario, requests: LoadRequest[], children: Servers, fixtures: Map<string, Fixture[]>) {
  const { options, results, work } = session;
  const extraUs = (find(results.throughput, scenario.id, 'validated')?.cpuUsPerRequest ?? NaN) - (find(results.throughput, scenario.id, 'http')?.cpuUsPerRequest ?? NaN);
  if (extraUs > 0) children.set('costed', await session.track(startPeer('http', fixtures.get(scenario.id)!, work, extraUs)));
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
  await session.stop(children.get('costed'));
  children.delete('costed');
}

/**
 * The profile: a validated server of its own runs the scenario once more, so its profile
 * holds that scenario only. The rounds above measured the server as npm start runs it:
 * the sampling profiler costs it about 7 % of its CPU, which no peer pays.
 */
async function profile(session: Session, scenario: Scenario, requests: LoadRequest[], identity: Identity, children: Servers) {
  const { options, results, work } = session;
  const validatedDir = join(work, 'throughput-validated');
  const profileDir = join(options.profile!, scenario.id);
  mkdirSync(profileDir, { recursive: true });
  await session.stop(children.get('validated'));
  const profiled = await session.ours({ engine: 'sqlite', dataDir: validatedDir }, identity, true, profileDir);
  log(`profile: ${scenario.label} · ${targetLabels.validated}`);
  const run = await load(profiled.url, requests, { connections: options.connections, durationS: options.durationS, warmupS: options.warmupS, pid: profiled.process.pid });
  await session.stop(profiled);
  const file = profileIn(profileDir);
  if (file && run.windowUs) results.profiles!.push({ scenario: scenario.id, label: scenario.label, requests: run.requests, summary: summarizeProfile(file, run.windowUs, run.requests) });
  children.set('validated', await session.ours({ engine: 'sqlite', dataDir: validatedDir }, identity, true));
}
