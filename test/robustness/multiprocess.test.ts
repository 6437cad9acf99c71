/**
 * Two server processes on one PostgreSQL database behind a round-robin proxy behave as one
 * server: order creation stays idempotent, a revoked key is refused by both at once, each
 * webhook attempt is sent once, and the rate limits (per organization, per key) count the
 * reads of both together.
 * Needs DATABASE_URL (CI runs it in the PostgreSQL step); skipped without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIdOf, eventually, startReceiver, type Receiver } from '../support/webhooks.ts';
import { newSeedKey, roundRobin, startServerProcess, type ServerProcess } from '../support/process.ts';
import { testDatabase, type TestDatabase } from '../support/storage.ts';
import { waitBudget, testBudget } from '../support/wait.ts';
import { solanaAddress } from '../support/fixtures.ts';

/** 40 reads per organization in each 20-second window: a burst fits one window on a slow machine. */
const readsPerSecond = 2;
const windowSeconds = 20;
const limit = readsPerSecond * windowSeconds;

describe.skipIf(!process.env.DATABASE_URL)('two server processes on one PostgreSQL, behind a round-robin', () => {
  const key = newSeedKey();
  const partnerId = key.split(':')[2]!;
  let database: TestDatabase;
  let servers: ServerProcess[] = [];
  let proxy: Awaited<ReturnType<typeof roundRobin>>;
  let receiver: Receiver;
  const received = new Map<string, number>();

  const call = async (base: string, method: string, path: string, body?: unknown, apiKey = key) => {
    const response = await fetch(base + path, {
      method,
      headers: { Authorization: apiKey, Connection: 'close', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, json: (await response.json().catch(() => undefined)) as any };
  };

  beforeAll(async () => {
    database = await testDatabase();
    const env = { ...database.env, RAMP_SEED_API_KEY: key, RAMP_RATE_LIMIT_READS_PER_SECOND: String(readsPerSecond), RAMP_RATE_LIMIT_WINDOW_SECONDS: String(windowSeconds), RAMP_WEBHOOK_RETRY_DELAY_MS: '200' };
    // The first creates the schema and the partner; the second starts on them.
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
    proxy = await roundRobin(servers);
    // Every event's first attempt is refused, so each delivery takes exactly two attempts.
    receiver = await startReceiver((_path, _count, request) => {
      const eventId = String(eventIdOf(request));
      const count = (received.get(eventId) ?? 0) + 1;
      received.set(eventId, count);
      return count === 1 ? 503 : 200;
    });
  }, 2 * testBudget);
  afterAll(async () => {
    await proxy?.close();
    for (const server of servers) await server.stop();
    await receiver?.close();
    await database?.drop();
  });

  it('creates one order per quote, however many concurrent retries reach either process', async () => {
    const wallet = solanaAddress();
    expect((await call(proxy.url, 'POST', `/organization/${partnerId}/wallet`, { custody: 'external', address: wallet, blockchain: 'solana' })).status).toBe(201);
    for (let round = 0; round < 3; round++) {
      const quote = await call(proxy.url, 'POST', `/organization/${partnerId}/quote`, { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '100.00', rail: 'spei', walletAddress: wallet });
      expect(quote.status, JSON.stringify(quote.json)).toBe(201);
      const attempts = await Promise.all(Array.from({ length: 12 }, () => call(proxy.url, 'POST', `/organization/${partnerId}/order`, { quoteId: quote.json.quoteId })));
      const statuses = attempts.map((a) => a.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      // The others read the existing order, or were told to retry (409 conflict while racing).
      expect(statuses.every((s) => s === 201 || s === 200 || s === 409), JSON.stringify(statuses)).toBe(true);
      const ids = new Set(attempts.filter((a) => a.status < 300).map((a) => a.json.id));
      expect(ids.size).toBe(1);
      const again = await call(proxy.url, 'POST', `/organization/${partnerId}/order`, { quoteId: quote.json.quoteId });
      expect(again.status).toBe(200);
      expect(again.json.id).toBe([...ids][0]);
    }
    const storage = await database.open();
    try {
      const orders = await storage.db.selectFrom('orders').select(['quote_id']).execute();
      expect(new Set(orders.map((o) => o.quote_id)).size).toBe(orders.length);
    } finally {
      await storage.close();
    }
  }, testBudget);

  it('refuses a revoked key on both processes at once', async () => {
    // A second key of the partner's own (a key creates keys for its own organization only).
    const id = partnerId;
    const created = await call(proxy.url, 'POST', `/organization/${id}/api_key`);
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    for (const server of servers) expect((await call(server.url, 'GET', `/organization/${id}`, undefined, created.json.key)).status).toBe(200);
    // Revoked through the first process; the very next request to either is refused.
    expect((await call(servers[0]!.url, 'DELETE', `/organization/${id}/api_key/${created.json.id}`)).status).toBe(204);
    const after = await Promise.all(servers.map((server) => call(server.url, 'GET', `/organization/${id}`, undefined, created.json.key)));
    expect(after.map((a) => a.status)).toEqual([401, 401]);
    expect(after.map((a) => a.json?.type)).toEqual(['https://docs.ramp.example/errors/unauthorized', 'https://docs.ramp.example/errors/unauthorized']);
  }, testBudget);

  it('sends each delivery attempt once, though both processes run the delivery job', async () => {
    expect((await call(proxy.url, 'POST', '/webhook_subscription', { url: `${receiver.url}/hooks`, eventType: 'kycUpdated' })).status).toBe(201);
    const people: string[] = [];
    for (let i = 0; i < 10; i++) {
      const person = await call(proxy.url, 'POST', '/ramp/organization', { displayName: `Person ${i}`, type: 'personal' });
      people.push(person.json.organizationId);
    }
    await Promise.all(people.map((id) => call(proxy.url, 'POST', `/sandbox/organization/${id}/kyc`, { status: 'approved' })));
    const storage = await database.open();
    try {
      const events = await storage.db.selectFrom('events').select(['id']).where('type', '=', 'kycUpdated').execute();
      expect(events).toHaveLength(10);
      await eventually(() => events.every((e) => (received.get(e.id) ?? 0) >= 2), waitBudget, 'two attempts of every delivery');
      await eventually(async () => (await storage.db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').execute()).length === 0, waitBudget, 'no pending delivery');
      // Let any duplicate arrive before counting.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(events.map((e) => received.get(e.id))).toEqual(events.map(() => 2));
      const attempts = await storage.db.selectFrom('webhook_attempts').select(['delivery_id', 'number']).execute();
      expect(new Set(attempts.map((a) => `${a.delivery_id}#${a.number}`)).size).toBe(attempts.length);
    } finally {
      await storage.close();
    }
  }, testBudget);

  /**
   * Reads `paths` in turn, twice the limit in all, in one burst within one counting window
   * (started just after a window opens; a burst that straddled two windows is tried again).
   */
  async function burstInOneWindow(paths: string[]) {
    const windowOf = (ms: number) => Math.floor(ms / 1000 / windowSeconds);
    for (let tries = 0; ; tries++) {
      const windowMs = windowSeconds * 1000;
      await new Promise((resolve) => setTimeout(resolve, windowMs - (Date.now() % windowMs) + 50));
      const started = Date.now();
      const burst = await Promise.all(Array.from({ length: limit * 2 }, (_, i) => call(proxy.url, 'GET', paths[i % paths.length]!)));
      const oneWindow = windowOf(started) === windowOf(Date.now());
      if (!oneWindow && tries < 3) continue;
      expect(oneWindow, 'a burst within one window').toBe(true);
      const ok = burst.filter((b) => b.status === 200);
      const limited = burst.filter((b) => b.status === 429);
      expect(ok.length + limited.length).toBe(burst.length);
      expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(limited[0]!.headers.get('retry-after'))).toBeLessThanOrEqual(windowSeconds);
      return { ok, limited };
    }
  }

  it('counts the reads of both processes against one limit', async () => {
    const child = await call(proxy.url, 'POST', '/ramp/organization', { displayName: 'Busy customer', type: 'personal' });
    const { ok } = await burstInOneWindow([`/organization/${child.json.organizationId}`]);
    // One server lets exactly the limit through; two with counters of their own, twice that.
    expect(ok).toHaveLength(limit);
  }, testBudget);

  it('counts the reads of one key, whichever customers they are for, against one limit across both processes', async () => {
    const children = await Promise.all([1, 2].map((i) => call(proxy.url, 'POST', '/ramp/organization', { displayName: `Read customer ${i}`, type: 'personal' })));
    // Each customer is read the limit times: only the key's budget (the same limit by default) holds the burst back.
    const { ok, limited } = await burstInOneWindow(children.map((c) => `/organization/${c.json.organizationId}`));
    expect(ok).toHaveLength(limit);
    expect(limited[0]!.json.detail).toMatch(/^Too many reads with this API key/);
  }, testBudget);
});
