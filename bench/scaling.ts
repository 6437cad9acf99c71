/**
 * The scaling section: the same pages and reads at a thousand and at a million stored orders,
 * one request at a time, on SQLite and on PostgreSQL; their latency growth is judged
 * (report.ts `growth`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { root, sequential, type LoadRequest, type LoadResult } from './lib.ts';
import type { ScalingRow } from './report.ts';
import { capture, getOrder, type Scenario, type World } from './scenarios.ts';
import { sampleOrders, seedOrders, type Database } from './seed.ts';
import { log, makeTemplateOrder, newIdentity, type Session } from './session.ts';

/** Scaling on SQLite, then on the PostgreSQL server `postgresServer` finds (or a note of why not). */
export async function scaling(session: Session) {
  await scalingOn(session, 'sqlite');
  const postgres = await postgresServer();
  if (postgres.url) {
    try {
      await scalingOn(session, 'postgres', postgres.url);
    } finally {
      postgres.stop?.();
    }
  } else {
    session.results.notes.push(postgres.why!);
  }
}

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

async function scalingOn(session: Session, engine: 'sqlite' | 'postgres', adminUrl?: string) {
  const { options, results, work } = session;
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
    let server = await session.ours(database, identity);
    const made = await makeTemplateOrder(server.url, world);
    await session.stop(server);
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
      server = await session.ours(database, identity);
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
      await session.stop(server);
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
  const { env } = process;
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
