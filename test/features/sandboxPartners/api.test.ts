/**
 * Isolated sandbox partners on demand (issue 35, item 1): `POST /sandbox/partners` and
 * `DELETE /sandbox/partners/{partnerId}`, made through the client's `createSandboxPartner` as a
 * partner's CI does. Eight partners run the partner flow suite (test/support/flowSuite.ts) at
 * once, and none sees another's objects, events, deliveries or clock moves; a delete removes
 * every row the partner owned and no other; the expiry job removes an unused partner, driven
 * with the time it is given.
 *
 * The proof runs on one server, on the engine of the run (SQLite, or PostgreSQL with
 * DATABASE_URL). Several servers on one database is PostgreSQL's case, and runs as it is
 * deployed: two server processes behind a round-robin (DATABASE_URL only). SQLite serves one
 * process; two servers in this one process on one SQLite file would share its one thread, which
 * SQLite's busy wait for the other's write lock blocks, so under load requests are dropped
 * (ECONNRESET) for a reason no deployment has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxPartner, RampProblem, type RampClient, type SandboxPartner, type Schema } from '../../../client/index.ts';
import { expireIdlePartners } from '../../../server/features/sandboxPartners/useCases.ts';
import type { Db, Storage } from '../../../server/storage/database.ts';
import type { Tables } from '../../../server/storage/tables.ts';
import { expectStatus } from '../../support/api.ts';
import { expectPlainError, expectProblem } from '../../support/errors.ts';
import { manualClock } from '../../support/fixtures.ts';
import { runFlowSuite, type FlowSuiteResult } from '../../support/flowSuite.ts';
import type { Made } from '../../support/flows.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startReceiver, type Receiver } from '../../support/webhooks.ts';
import { eventually, testBudget } from '../../support/wait.ts';
import { newSeedKey, roundRobin, startServerProcess, type ServerProcess } from '../../support/process.ts';
import { testDatabase, type TestDatabase } from '../../support/storage.ts';

/** Every row of every table the database has (so a table added later is covered), as JSON text per table. */
async function snapshot(db: Db): Promise<Map<keyof Tables, string[]>> {
  const tables = (await db.introspection.getTables()).map((t) => t.name as keyof Tables);
  expect(tables).toContain('sandbox_partners');
  const rows = new Map<keyof Tables, string[]>();
  for (const table of tables) rows.set(table, (await db.selectFrom(table).selectAll().execute()).map((row) => JSON.stringify(row)));
  return rows;
}

/**
 * The rows that belong to a partner: those naming one of its organizations, and, in turn, those
 * naming one of theirs. The request log is the partner's by its `partner_id` only: another
 * partner's entry of a request that named this one's ids (a 404 probe) is the other's.
 */
function ownedBy(rows: Map<keyof Tables, string[]>, organizationIds: string[]): Map<keyof Tables, Set<string>> {
  const ids = new Set(organizationIds);
  const owned = new Map<keyof Tables, Set<string>>([...rows.keys()].map((table) => [table, new Set<string>()]));
  owned.set('request_log', new Set(rows.get('request_log')!.filter((text) => organizationIds.includes((JSON.parse(text) as { partner_id: string }).partner_id))));
  for (let grew = true; grew;) {
    grew = false;
    for (const [table, texts] of rows) {
      if (table === 'request_log') continue;
      for (const text of texts) {
        if (owned.get(table)!.has(text) || ![...ids].some((id) => text.includes(id))) continue;
        owned.get(table)!.add(text);
        const { id } = JSON.parse(text) as { id?: string };
        if (typeof id === 'string' && !ids.has(id)) ids.add(id);
        grew = true;
      }
    }
  }
  return owned;
}

/**
 * Where each partner's clock starts: frozen on a day of its own, the last one running on real
 * time. A run moves its clock by about an hour, so an advance that reached another partner's
 * clock would leave that one a day or more from where its own advances put it.
 */
const startOf = (i: number) => (i < 7 ? new Date(Date.UTC(2026, 2, 1 + i, 12)).toISOString() : undefined);

/** The eight partners, made at once through `baseUrl` with the maker's key. */
function makePartners(baseUrl: string, apiKey: string, headers?: Record<string, string>): Promise<SandboxPartner[]> {
  return Promise.all(Array.from({ length: 8 }, (_, i) => {
    const frozenAt = startOf(i);
    return createSandboxPartner({ baseUrl, apiKey, displayName: `CI run ${i}`, ...(frozenAt ? { frozenAt } : {}), ...(headers ? { headers } : {}) });
  }));
}

/**
 * The whole partner flow suite for every partner at once, all delivering to one receiver (each
 * to its own path), each leaving its subscription and frozen clock for expectIsolated to read.
 */
async function runSuites(baseUrl: string, partners: SandboxPartner[], receiver: Receiver, headers?: Record<string, string>): Promise<FlowSuiteResult[]> {
  const runs = await Promise.all(partners.map((partner) => runFlowSuite({ baseUrl, apiKey: partner.apiKey, receiver, cleanup: false, ...(headers ? { headers } : {}) })));
  for (const [i, run] of runs.entries()) expect(run.partnerId).toBe(partners[i]!.id);
  return runs;
}

/** Every event of the key's feed, oldest first, following its cursor. */
async function feed(api: RampClient): Promise<Schema<'SandboxEvent'>[]> {
  const events: Schema<'SandboxEvent'>[] = [];
  for (let after = 0; ;) {
    const page = expectStatus(await api.GET('/sandbox/events', { params: { query: { after, pageSize: 100 } } }), 200);
    events.push(...page.items);
    if (page.items.length < 100) return events;
    after = page.nextCursor;
  }
}

/** What a partner's key lists of each kind of object its run made (its feed read already). */
async function listed(api: RampClient, run: FlowSuiteResult, events: Schema<'SandboxEvent'>[]): Promise<Partial<Record<keyof Made, string[]>>> {
  const q = { pageSize: 100 };
  const ofCustomers = async <T>(read: (organizationId: string) => Promise<T[]>) => (await Promise.all(run.made.customers.map(read))).flat();
  return {
    customers: expectStatus(await api.GET('/organizations', { params: { query: q } }), 200).items.map((o) => o.organizationId),
    orders: expectStatus(await api.GET('/orders', { params: { query: q } }), 200).items.map((o) => o.id),
    quotes: await ofCustomers(async (organizationId) => expectStatus(await api.GET('/organization/{organizationId}/quotes', { params: { path: { organizationId }, query: q } }), 200).items.map((x) => x.quoteId)),
    paymentAccounts: await ofCustomers(async (organizationId) => expectStatus(await api.GET('/organization/{organizationId}/payment_accounts', { params: { path: { organizationId }, query: q } }), 200).items.map((x) => x.id)),
    events: events.map((e) => e.eventId),
  };
}

/** Each partner sees its own objects, events, deliveries and clock only, and none of another's. */
async function expectIsolated(partners: SandboxPartner[], runs: FlowSuiteResult[], receiver: Receiver) {
  for (const [i, run] of runs.entries()) {
    const api = partners[i]!.client;
    const others = runs.filter((r) => r !== run);
    const events = await feed(api);
    // Its lists hold everything its run made, and nothing another's made.
    for (const [kind, ids] of Object.entries(await listed(api, run, events)) as [keyof Made, string[]][]) {
      expect(ids, `partner ${i}'s ${kind}`).toEqual(expect.arrayContaining(run.made[kind]));
      const theirs = new Set(others.flatMap((r) => r.made[kind]));
      expect(ids.filter((id) => theirs.has(id)), `another partner's ${kind} listed to partner ${i}`).toEqual([]);
    }
    const organizations = new Set([run.partnerId, ...run.made.customers]);
    for (const event of events) expect(organizations.has(event.organizationId), `event ${event.eventId} of ${event.organizationId}`).toBe(true);
    expect(expectStatus(await api.GET('/webhook_subscriptions'), 200).items.map((s) => s.id)).toEqual([run.webhook.subscriptionId]);
    await expectOwnDeliveries(api, run, receiver);
    // Its clock stands, frozen, where its own last advance put it, less than a day from its own start.
    const clock = expectStatus(await api.GET('/sandbox/clock'), 200);
    expect(clock).toMatchObject({ organizationId: run.partnerId, frozen: true, now: run.made.clockMoves.at(-1) });
    if (startOf(i)) expect(run.frozenAt).toBe(startOf(i));
    expect(Date.parse(clock.now) - Date.parse(run.frozenAt)).toBeGreaterThan(0);
    expect(Date.parse(clock.now) - Date.parse(run.frozenAt)).toBeLessThan(86_400_000);
    // Another partner's objects are not found with this key (the orders and the payment account are its first customer's).
    for (const other of others.slice(0, 2)) {
      const organizationId = other.made.customers[0]!;
      expectProblem(await api.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId, id: other.made.orders[0]! } } }), 404, 'not-found');
      expectProblem(await api.GET('/organization/{organizationId}/payment_account/{id}', { params: { path: { organizationId, id: other.made.paymentAccounts[0]! } } }), 404, 'not-found');
      expectProblem(await api.GET('/webhook_subscription/{id}', { params: { path: { id: other.webhook.subscriptionId } } }), 404, 'not-found');
      expectPlainError(await api.GET('/ramp/order/{id}', { params: { path: { id: other.made.v1Orders[0]! } } }), 404);
      expectPlainError(await api.GET('/ramp/swap/{id}', { params: { path: { id: other.made.v1Swaps[0]! } } }), 404);
    }
  }
}

/**
 * Every delivery of the run's subscription is delivered, to its own path of the shared receiver,
 * each carrying an event its run read on its own objects' timelines: what arrived on that path
 * is those events, each about one of its own orders.
 */
async function expectOwnDeliveries(api: RampClient, run: FlowSuiteResult, receiver: Receiver) {
  const query = { params: { path: { id: run.webhook.subscriptionId }, query: { pageSize: 100 } } };
  const deliveries = await eventually(async () => {
    const items = expectStatus(await api.GET('/webhook_subscription/{id}/deliveries', query), 200).items;
    return items.length > 0 && items.every((d) => d.status === 'delivered') && items;
  }, undefined, `every delivery of partner ${run.partnerId} delivered`);
  expect(run.made.events).toEqual(expect.arrayContaining(deliveries.map((d) => d.eventId)));
  const received = receiver.to(run.webhook.path).map((r) => r.body as { eventId: string; order: { id: string } });
  expect(new Set(received.map((body) => body.eventId))).toEqual(new Set(deliveries.map((d) => d.eventId)));
  for (const body of received) expect(run.made.orders).toContain(body.order.id);
}

describe('isolated sandbox partners: eight at once on one server', () => {
  let server: TestServer;
  let receiver: Receiver;
  let partners: SandboxPartner[] = [];
  let runs: FlowSuiteResult[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_WEBHOOK_RETRY_DELAY_MS: '50' } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all(partners.map((partner) => partner.delete().catch(() => undefined)));
    await receiver?.close();
    await server?.close();
  });

  it('makes eight partners at once, each a KYB-approved business with no parent, its own key and a clock of its own', async () => {
    partners = await makePartners(server.url, server.key);
    expect(new Set(partners.map((p) => p.id)).size).toBe(8);
    for (const [i, partner] of partners.entries()) {
      const organization = expectStatus(await partner.client.GET('/organization/{organizationId}', { params: { path: { organizationId: partner.id } } }), 200);
      expect(organization).toMatchObject({ organizationId: partner.id, type: 'business', displayName: `CI run ${i}`, parentOrganizationId: null });
      expect(expectStatus(await partner.client.GET('/organization/{organizationId}/kyb', { params: { path: { organizationId: partner.id } } }), 200).status).toBe('approved');
      expect(partner.clock.organizationId).toBe(partner.id);
      // Frozen where it was asked to start; on real time when nothing was asked.
      expect(partner.clock.frozen).toBe(startOf(i) !== undefined);
      if (startOf(i)) expect(partner.clock.now).toBe(startOf(i));
    }
    // Never the maker's customer: the maker's list of organizations does not hold them.
    const listed = expectStatus(await server.api.GET('/organizations', { params: { query: { pageSize: 100 } } }), 200).items.map((o) => o.organizationId);
    for (const partner of partners) expect(listed).not.toContain(partner.id);
  });

  it('runs the flow suite for all eight at once: none sees another\'s objects, events, deliveries or clock moves', async () => {
    const seedClockBefore = expectStatus(await server.api.GET('/sandbox/clock'), 200);
    runs = await runSuites(server.url, partners, receiver);
    await expectIsolated(partners, runs, receiver);
    // The maker's own clock did not move with any of them.
    const seedClock = expectStatus(await server.api.GET('/sandbox/clock'), 200);
    expect(seedClock.frozen).toBe(seedClockBefore.frozen);
    expect(Math.abs(Date.parse(seedClock.now) - Date.now())).toBeLessThan(60_000);
  });

  it('refuses a delete by another partner (404) and of a partner not made this way (403), changing nothing', async () => {
    const [a, b] = partners;
    expectProblem(await b!.client.DELETE('/sandbox/partners/{partnerId}', { params: { path: { partnerId: a!.id } } }), 404, 'not-found');
    expectProblem(await server.api.DELETE('/sandbox/partners/{partnerId}', { params: { path: { partnerId: server.partnerId } } }), 403, 'forbidden');
    expectProblem(await server.api.DELETE('/sandbox/partners/{partnerId}', { params: { path: { partnerId: crypto.randomUUID() } } }), 404, 'not-found');
    expectStatus(await a!.client.GET('/sandbox/clock'), 200);
  });

  it('deletes a partner with every row it owned, in every table, and leaves every other row as it was', async () => {
    const victim = partners[0]!;
    const run = runs[0]!;
    // Let the background work of every partner settle: no delivery left to attempt.
    await server.jobs.tick();
    const before = await snapshot(server.services.storage.db);
    const owned = ownedBy(before, [victim.id, ...run.made.customers]);
    for (const table of ['organizations', 'api_keys', 'events', 'verifications', 'webhook_subscriptions', 'webhook_deliveries', 'webhook_attempts', 'payment_accounts', 'quotes', 'orders', 'list_counters', 'sandbox_clocks', 'sandbox_partners'] as const) {
      expect(owned.get(table)!.size, `${table} holds rows of the partner before`).toBeGreaterThan(0);
    }
    // The partner's own key deletes it (its "reset"); the answer to that request is logged after it and must not survive either.
    expectStatus(await victim.client.DELETE('/sandbox/partners/{partnerId}', { params: { path: { partnerId: victim.id } } }), 204);
    await server.services.storage.db.selectFrom('organizations').select('id').limit(1).execute();
    const after = await snapshot(server.services.storage.db);
    const ownedAfter = ownedBy(after, [victim.id, ...run.made.customers]);
    for (const [table, texts] of after) {
      const mine = texts.filter((text) => ownedAfter.get(table)!.has(text) || owned.get(table)!.has(text));
      expect(mine, `${table} keeps no row of the deleted partner`).toEqual([]);
      const left = new Set(texts);
      for (const text of before.get(table)!) {
        // Other partners' rows are all still there (the request log and rate-limit windows only grow meanwhile).
        if (!owned.get(table)!.has(text) && table !== 'request_log' && table !== 'rate_limit_windows') expect(left.has(text), `${table} row kept: ${text.slice(0, 120)}`).toBe(true);
      }
    }
    // Its key is gone with it; its maker now finds nothing to delete.
    expectProblem(await victim.client.GET('/sandbox/clock'), 401, 'unauthorized');
    expectProblem(await server.api.DELETE('/sandbox/partners/{partnerId}', { params: { path: { partnerId: victim.id } } }), 404, 'not-found');
    // The delete's own entry is written after its answer, in a batch before the maker's: once
    // the maker's is stored, the deleted partner's was handled, and must not be there.
    const log = server.services.storage.db.selectFrom('request_log').select(['partner_id', 'operation_id', 'status']);
    await eventually(async () => (await log.where('partner_id', '=', server.partnerId).where('operation_id', '=', 'deleteSandboxPartner').where('object_ids', '=', victim.id).execute()).length > 0, undefined, 'the maker\'s logged delete');
    expect(await log.where('partner_id', '=', victim.id).execute()).toEqual([]);
    // The other partners go on.
    expect(expectStatus(await partners[1]!.client.GET('/orders', { params: { query: { pageSize: 100 } } }), 200).items.map((o) => o.id)).toEqual(expect.arrayContaining(runs[1]!.made.orders));
  });

  it('lets the maker\'s key delete a partner it made, and the client\'s delete() is done for one already gone', async () => {
    const made = partners[1]!;
    expectStatus(await server.api.DELETE('/sandbox/partners/{partnerId}', { params: { path: { partnerId: made.id } } }), 204);
    await made.delete();
    expect(await server.services.storage.db.selectFrom('organizations').select('id').where('top_id', '=', made.id).execute()).toEqual([]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('isolated sandbox partners on two server processes on one PostgreSQL, behind a round-robin', () => {
  const key = newSeedKey();
  let database: TestDatabase;
  let storage: Storage;
  const servers: ServerProcess[] = [];
  let proxy: Awaited<ReturnType<typeof roundRobin>>;
  let receiver: Receiver;

  beforeAll(async () => {
    database = await testDatabase();
    const env = { ...database.env, RAMP_SEED_API_KEY: key, RAMP_WEBHOOK_RETRY_DELAY_MS: '200' };
    // The first creates the schema and the seed partner; the second starts on them.
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
    proxy = await roundRobin(servers);
    storage = await database.open();
    receiver = await startReceiver();
  }, 2 * testBudget);
  afterAll(async () => {
    await proxy?.close();
    for (const server of servers) await server.stop();
    await receiver?.close();
    await storage?.close();
    await database?.drop();
  });

  it('runs eight partners\' flows at once, isolated, and a delete leaves none of a partner\'s rows', { timeout: 2 * testBudget }, async () => {
    // One connection per request, so each request goes to the next process in turn, and none
    // is sent on a connection the round-robin is closing as idle.
    const oneShot = { Connection: 'close' };
    const partners = await makePartners(proxy.url, key, oneShot);
    const runs = await runSuites(proxy.url, partners, receiver, oneShot);
    await expectIsolated(partners, runs, receiver);
    await Promise.all(partners.map((partner) => partner.delete()));
    const after = await snapshot(storage.db);
    for (const [table, texts] of after) {
      if (table === 'request_log') continue;
      const left = texts.filter((text) => partners.some((p) => text.includes(p.id)) || runs.some((r) => r.made.customers.some((id) => text.includes(id))));
      expect(left, `${table} keeps no row of a deleted partner`).toEqual([]);
    }
    expect(await storage.db.selectFrom('request_log').select('id').where('partner_id', 'in', partners.map((p) => p.id)).execute()).toEqual([]);
  });
});

describe('the cap, the idle expiry and production', () => {
  const real = manualClock();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clock: real, env: { RAMP_SANDBOX_PARTNER_LIMIT: '2', RAMP_JOB_INTERVAL_MS: '600000' } });
  });
  afterAll(() => server?.close());

  const make = (body: { displayName?: string; frozenAt?: string } = {}) => server.api.POST('/sandbox/partners', { body });

  it('refuses a partner past the cap with 409 conflict, and stores nothing', async () => {
    const one = expectStatus(await make(), 201);
    const two = expectStatus(await make(), 201);
    const before = await server.services.storage.db.selectFrom('organizations').select('id').execute();
    const refused = expectProblem(await make(), 409, 'conflict');
    expect(refused.detail).toBe('The sandbox already holds 2 partners made by POST /sandbox/partners; delete one before making another.');
    expect(await server.services.storage.db.selectFrom('organizations').select('id').execute()).toEqual(before);
    await expect(createSandboxPartner({ baseUrl: server.url, apiKey: server.key, retry: false })).rejects.toSatisfy((e) => e instanceof RampProblem && e.slug === 'conflict');
    for (const partner of [one, two]) expectStatus(await server.as(partner.apiKey).DELETE('/sandbox/partners/{partnerId}', { params: { path: { partnerId: partner.id } } }), 204);
  });

  it('refuses a frozenAt that is no instant or past the clock\'s last instant with 400 validation-error', async () => {
    expectProblem(await make({ frozenAt: '9000-01-01T00:00:00.001Z' }), 400, 'validation-error');
    expectProblem(await make({ frozenAt: '2026-02-30T00:00:00Z' }), 400, 'validation-error');
    expect(await server.services.storage.db.selectFrom('sandbox_partners').select('partner_id').execute()).toEqual([]);
  });

  it('deletes a partner unused for 24 hours of real time, keeps one used meanwhile, whatever their clocks say', async () => {
    const unused = expectStatus(await make({ frozenAt: '2020-01-01T00:00:00.000Z' }), 201);
    const used = expectStatus(await make(), 201);
    const customer = expectStatus(await server.as(unused.apiKey).POST('/ramp/organization', { body: { displayName: 'Left behind', type: 'personal' } }), 201).organizationId;
    real.advance(23 * 3600_000);
    expectStatus(await server.as(used.apiKey).GET('/sandbox/clock'), 200);
    expect(await expireIdlePartners(server.services, real.now())).toEqual([]);
    real.advance(3600_000 + 1000);
    expect(await expireIdlePartners(server.services, real.now())).toEqual([unused.id]);
    expectProblem(await server.as(unused.apiKey).GET('/sandbox/clock'), 401, 'unauthorized');
    expect(await server.services.storage.db.selectFrom('organizations').select('id').where('id', 'in', [unused.id, customer]).execute()).toEqual([]);
    expectStatus(await server.as(used.apiKey).GET('/sandbox/clock'), 200);
    // The job registered with the others does the same on its own run.
    real.advance(25 * 3600_000);
    await server.jobs.tick();
    expect(await server.services.storage.db.selectFrom('sandbox_partners').select('partner_id').execute()).toEqual([]);
  });
});

describe('in production', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_ENV: 'production' } });
  });
  afterAll(() => server?.close());

  it('refuses both operations with 403 forbidden', async () => {
    expectProblem(await server.api.POST('/sandbox/partners', { body: {} }), 403, 'forbidden');
    expectProblem(await server.api.DELETE('/sandbox/partners/{partnerId}', { params: { path: { partnerId: server.partnerId } } }), 403, 'forbidden');
    expect(await server.services.storage.db.selectFrom('sandbox_partners').select('partner_id').execute()).toEqual([]);
  });
});
