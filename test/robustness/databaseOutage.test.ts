/**
 * PostgreSQL goes away under load, as a managed database does for maintenance, a failover or
 * sessions it ends: two server processes behind a round-robin (docs/configuration.md's setup for more
 * than one process), four clients writing (quote → order → deposit, and a v1 customer), and
 * (a) PostgreSQL stopped (a fast shutdown, then an immediate one, as a crash) and started
 * again, (b) every session of the sandbox terminated. Asserts: both processes live; every answer is one its operation
 * documents (a 503 with `Retry-After` in the surface's format during the fault, never a 500
 * or a dropped connection); both serve again within 5 s of PostgreSQL accepting connections;
 * no acknowledged write is lost and none is half made; a retried order gives its quote's one
 * order; the settlements and webhook deliveries due meanwhile run; the LISTEN connections
 * are back; each process logs the outage once. The figures printed at the end are
 * those of docs/reliability.md.
 *
 * It runs a PostgreSQL server of its own (scripts/postgres.sh), so its restart never reaches
 * the other tests. It runs in CI's PostgreSQL stage (DATABASE_URL set) where PostgreSQL is
 * installed, and is skipped otherwise.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../server/shared/contract.ts';
import { openStorage, type Storage } from '../../server/storage/database.ts';
import { root } from '../support/documents.ts';
import { solanaAddress } from '../support/fixtures.ts';
import { newSeedKey, roundRobin, startServerProcess, type ServerProcess } from '../support/process.ts';
import { freshPostgresDatabase } from '../support/storage.ts';
import { eventually, testBudget, waitBudget } from '../support/wait.ts';
import { eventIdOf, startReceiver, type Receiver } from '../support/webhooks.ts';
import { freePort } from '../support/ports.ts';

const installed = existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').length > 0;
const postgres = (...args: string[]) =>
  new Promise<string>((resolve, reject) =>
    execFile('bash', [join(root, 'scripts', 'postgres.sh'), ...args], (error, stdout, stderr) => (error ? reject(new Error(`postgres.sh ${args[0]}: ${stderr}`)) : resolve(stdout.trim()))),
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long PostgreSQL stays down in the restart. */
const outageMs = 3000;
/** Orders funded before a fault, and again after it, before the load stops. */
const fundedEachSide = 8;

const { operations } = loadContract();
const documented = (operationId: string) => operations.find((o) => o.operationId === operationId)!.statuses.map(Number);

interface Exchange {
  at: number;
  operationId: string;
  status: number;
  retryAfter: string | null;
  contentType: string | null;
  body: any;
}

/** Four clients writing through the round-robin until stopped; each 503 is retried with the same request. */
function startLoad(url: string, key: string, partnerId: string, walletAddress: string) {
  const exchanges: Exchange[] = [];
  /** Per quote, every order id a 2xx answered. */
  const orders = new Map<string, Set<string>>();
  const funded = new Set<string>();
  const customers = new Set<string>();
  let stopped = false;
  const send = async (operationId: string, path: string, body: unknown) => {
    for (;;) {
      // A connection of its own per request: the proxy's next request may go to the other process.
      const headers = { Authorization: key, 'Content-Type': 'application/json', Connection: 'close' };
      const exchange = await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) }).then(
        async (response) => {
          const text = await response.text();
          return { at: Date.now(), operationId, status: response.status, retryAfter: response.headers.get('retry-after'), contentType: response.headers.get('content-type'), body: text ? JSON.parse(text) : undefined };
        },
        // No answer at all: no status a client could act on (expectDocumented refuses it).
        (error: Error) => ({ at: Date.now(), operationId, status: 0, retryAfter: null, contentType: null, body: error.message }),
      );
      exchanges.push(exchange);
      if (exchange.status !== 503 || stopped) return exchange;
      await sleep(100);
    }
  };
  const client = async (n: number) => {
    const organization = `/organization/${partnerId}`;
    for (let i = 0; !stopped; i++) {
      const quote = await send('createQuote', `${organization}/quote`, { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '100.00', rail: 'spei', walletAddress });
      if (quote.status !== 201) continue;
      const quoteId: string = quote.body.quoteId;
      orders.set(quoteId, new Set());
      // Sent again once answered: the same quote gives the same order.
      let order: Exchange | undefined;
      for (const _ of [1, 2]) {
        order = await send('createOrder', `${organization}/order`, { quoteId });
        if (order.status === 200 || order.status === 201) orders.get(quoteId)!.add(order.body.id);
      }
      if (order!.status !== 200) continue;
      const deposit = await send('simulateDeposit', `/sandbox${organization}/order/${order!.body.id}/deposit`, {});
      if (deposit.status === 200) funded.add(order!.body.id);
      const customer = await send('v1CreateOrganization', '/ramp/organization', { displayName: `Client ${n}-${i}`, type: 'personal' });
      if (customer.status === 201) customers.add(customer.body.organizationId);
    }
  };
  const clients = [0, 1, 2, 3].map(client);
  return {
    exchanges,
    orders,
    funded,
    customers,
    async stop() {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

/** A 503 in its surface's format with `Retry-After`; any other answer one the operation documents. */
function expectDocumented(exchange: Exchange) {
  const where = JSON.stringify(exchange);
  expect(documented(exchange.operationId), where).toContain(exchange.status);
  if (exchange.status !== 503) return;
  expect(exchange.retryAfter, where).toBe('1');
  if (exchange.operationId.startsWith('v1')) {
    expect(exchange.contentType, where).toMatch(/^application\/json/);
    expect(exchange.body, where).toEqual({ error: expect.any(String) });
  } else {
    expect(exchange.contentType, where).toMatch(/^application\/problem\+json/);
    expect(exchange.body, where).toMatchObject({ type: 'https://docs.ramp.example/errors/service-unavailable', status: 503 });
  }
}

/** The statuses an order's orderUpdated events carry, in order, for each status it can have here. */
const eventPath: Record<string, string[]> = { created: [], funded: ['funded'], completed: ['funded', 'completed'] };

describe.skipIf(!process.env.DATABASE_URL || !installed)('PostgreSQL going away under load, two server processes behind a round-robin', () => {
  const key = newSeedKey();
  const partnerId = key.split(':')[2]!;
  const walletAddress = solanaAddress();
  let dataDir: string;
  let port: number;
  let adminUrl: string;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let storage: Storage | undefined;
  let servers: ServerProcess[] = [];
  let proxy: Awaited<ReturnType<typeof roundRobin>> | undefined;
  let receiver: Receiver | undefined;
  const figures: Record<string, unknown>[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ramp-outage-'));
    port = await freePort();
    adminUrl = await postgres('start', dataDir, String(port));
    database = await freshPostgresDatabase(adminUrl, 'ramp_outage');
    receiver = await startReceiver(() => 200);
    // Deliveries wake on NOTIFY (the LISTEN connection) besides their poll, as by default.
    const env = { DATABASE_URL: database.url, RAMP_SEED_API_KEY: key, RAMP_WEBHOOK_POLL_MS: '25' };
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
    proxy = await roundRobin(servers);
    storage = await openStorage({ databaseUrl: database.url });
    const post = (path: string, body: unknown) => fetch(proxy!.url + path, { method: 'POST', headers: { Authorization: key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/webhook_subscription', { url: `${receiver.url}/hooks`, eventType: 'orderUpdated' })).status).toBe(201);
    expect((await post(`/organization/${partnerId}/wallet`, { custody: 'external', address: walletAddress, blockchain: 'solana' })).status).toBe(201);
  }, testBudget);

  afterAll(async () => {
    if (figures.length > 0) console.info(`database outage figures: ${JSON.stringify(figures)}`);
    await proxy?.close();
    for (const server of servers) await server.stop();
    await receiver?.close();
    await storage?.close();
    await database?.drop().catch(() => undefined);
    if (dataDir) {
      await postgres('stop', dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const terminateSessions = async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const name = new URL(database!.url).pathname.slice(1);
      const { rowCount } = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      expect(rowCount).toBeGreaterThan(2);
    } finally {
      await admin.end();
    }
  };

  /** PostgreSQL stopped (`fast`: sessions told and ended; `immediate`: as a crash), down for a while, and started again. */
  const restart = (mode: 'fast' | 'immediate') => async () => {
    await postgres('stop', dataDir, mode);
    await sleep(outageMs);
    await postgres('start', dataDir, String(port));
  };
  const faults = [
    { name: 'PostgreSQL stopped (fast shutdown) and started again', inject: restart('fast') },
    { name: 'PostgreSQL stopped as by a crash (immediate shutdown) and started again', inject: restart('immediate') },
    { name: 'every session of the sandbox terminated (pg_terminate_backend)', inject: terminateSessions },
  ];

  for (const fault of faults) {
    it(`${fault.name}: the processes live, every answer is documented, they serve again within 5 s, and nothing acknowledged is lost`, async () => {
      const load = startLoad(proxy!.url, key, partnerId, walletAddress);
      const fundedBefore = new Set<string>();
      await eventually(() => load.funded.size >= fundedEachSide, waitBudget, 'orders funded before the fault');
      const logged = servers.map((server) => server.output.length);
      const faultAt = Date.now();
      await fault.inject();
      // PostgreSQL accepts connections again (pg_ctl start waits for it): each process must serve within 5 s.
      const backAt = Date.now();
      const servedAt = await Promise.all(
        servers.map(async (server) => {
          await eventually(async () => (await fetch(`${server.url}/organization/${partnerId}`, { headers: { Authorization: key } })).status === 200, waitBudget, 'a read answered 200');
          return Date.now();
        }),
      );
      const recoverySeconds = (Math.max(...servedAt) - backAt) / 1000;
      for (const id of load.funded) fundedBefore.add(id);
      await eventually(() => load.funded.size >= fundedBefore.size + fundedEachSide, waitBudget, 'orders funded after the fault');
      await load.stop();

      // The processes live and logged the outage once each, with no internal error.
      for (const [i, server] of servers.entries()) {
        expect(server.child.exitCode, server.output.join('\n')).toBeNull();
        expect(server.child.signalCode).toBeNull();
        const lines = () => server.output.slice(logged[i]);
        expect(lines().filter((line) => line.includes('the database is unavailable')), lines().join('\n')).toHaveLength(1);
        expect(lines().filter((line) => /internal error|job failed|Unhandled/.test(line)), lines().join('\n')).toEqual([]);
        await eventually(() => lines().some((line) => line.includes('the database is available again')), waitBudget, 'the end of the outage logged');
      }
      // Every answer documented; during the fault, the documented 503 at worst.
      for (const exchange of load.exchanges) expectDocumented(exchange);
      const during = load.exchanges.filter((e) => e.at >= faultAt && e.at <= Math.max(...servedAt));
      const byStatus: Record<number, number> = {};
      for (const e of during) byStatus[e.status] = (byStatus[e.status] ?? 0) + 1;
      expect(recoverySeconds, 'served again within 5 s').toBeLessThan(5);

      // Nothing acknowledged is lost, nothing is half made, one order per quote.
      const db = storage!.db;
      let lost = 0;
      const stored = new Map((await db.selectFrom('orders').select(['id', 'quote_id', 'status']).execute()).map((o) => [o.id, o]));
      for (const [quoteId, ids] of load.orders) {
        expect(ids.size, `the orders answered for quote ${quoteId}`).toBeLessThanOrEqual(1);
        for (const id of ids) if (stored.get(id)?.quote_id !== quoteId) lost++;
      }
      expect(new Set([...stored.values()].map((o) => o.quote_id)).size).toBe(stored.size);
      const customers = new Set((await db.selectFrom('organizations').select('id').where('parent_id', '=', partnerId).execute()).map((o) => o.id));
      for (const id of load.customers) if (!customers.has(id)) lost++;
      expect(lost, 'acknowledged writes lost').toBe(0);
      // The settlements that fell due during the outage ran: every funded order completes.
      await eventually(async () => {
        const open = await db.selectFrom('orders').select('id').where('id', 'in', [...load.funded]).where('status', '!=', 'completed').execute();
        return open.length === 0;
      }, waitBudget, 'every funded order completed');
      const orders = await db.selectFrom('orders').select(['id', 'status']).execute();
      const events = await db.selectFrom('events').select(['id', 'subject_id', 'payload', 'occurred_at']).where('type', '=', 'orderUpdated').orderBy('occurred_at').execute();
      for (const order of orders) {
        const path = events.filter((e) => e.subject_id === order.id).map((e) => JSON.parse(e.payload).order.status);
        expect(path, `the events of order ${order.id} (${order.status})`).toEqual(eventPath[order.status]);
      }
      // Every event is delivered, those recorded just before the outage too; the LISTEN connections are back.
      await eventually(() => {
        const received = new Set(receiver!.received.map(eventIdOf));
        return events.every((e) => received.has(e.id));
      }, waitBudget, 'every orderUpdated event delivered');
      await eventually(async () => {
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN %'`.execute(db);
        return rows[0]!.n >= servers.length;
      }, waitBudget, 'a LISTEN connection per process');
      figures.push({ fault: fault.name, requestsDuringFault: byStatus, recoverySeconds, acknowledgedWritesLost: lost, acknowledged: { orders: load.funded.size, customers: load.customers.size } });
    }, testBudget);
  }
});
