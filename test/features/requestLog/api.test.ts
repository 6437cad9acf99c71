/**
 * The sandbox request log (listSandboxRequests) over HTTP: every request of the partner's
 * keys, newest first, with its answer (a refused one's problem), the objects it touched and
 * the filters; secrets never stored; polling reads left out; bounded per partner and in age;
 * and a log that cannot be written never fails a request.
 */
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../../client/index.ts';
import { requestLogRepository, type RequestLogRow } from '../../../server/features/requestLog/repository.ts';
import { entryId, requestLogLimits } from '../../../server/features/requestLog/rules.ts';
import { sandboxPartnersRepository } from '../../../server/features/sandboxPartners/repository.ts';
import { expectStatus, type Api } from '../../support/api.ts';
import { expectProblem } from '../../support/errors.ts';
import { createCustomer, customerClabe, order, otherPartner, sandboxClock, solanaAddress } from '../../support/fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { eventually, testBudget } from '../../support/wait.ts';

const { readAnswerBytes } = requestLogLimits;
type Entry = Schema<'SandboxRequest'>;
type Query = { status?: string; operationId?: string; organizationId?: string; objectId?: string; reads?: boolean; pageSize?: number };

const log = async (api: Api, query: Query = {}) => expectStatus(await api.GET('/sandbox/requests', { params: { query } }), 200);
/** The log once `found` holds of it: entries appear a moment after their answers. */
const logWhen = (api: Api, query: Query, found: (items: Entry[]) => boolean) =>
  eventually(async () => {
    const page = await log(api, query);
    return found(page.items) && page;
  });

describe('the sandbox request log', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('shows a refused request with its problem, filtered by status, operation, organization and object', { timeout: testBudget }, async () => {
    const { key } = await otherPartner(server);
    const api = server.as(key);
    const customer = await createCustomer(server, { key, displayName: 'Registro Rechazado' });
    const body = { kind: 'bankAccount' as const, rail: 'spei' as const, accountDetails: { clabe: customerClabe() }, registrationInfo: { accountHolderName: 'María' } };
    const refused = expectProblem(await api.POST('/organization/{organizationId}/payment_account', { params: { path: { organizationId: customer } }, body }), 422, 'registration-info-required');

    const page = await logWhen(api, { status: '4xx' }, (items) => items.length === 1);
    const [entry] = page.items;
    expect(entry).toMatchObject({
      method: 'POST',
      path: `/organization/${customer}/payment_account`,
      operationId: 'createPaymentAccount',
      surface: 'v2',
      status: 422,
      organizationId: customer,
      keyPrefix: key.slice(0, 16),
      objectIds: [customer],
      truncated: false,
    });
    expect(JSON.parse(entry!.requestBody!)).toEqual(body);
    expect(JSON.parse(entry!.responseBody!)).toEqual(refused);
    expect(entry!.durationMs).toBeGreaterThanOrEqual(0);
    expect(page).toMatchObject({ totalItems: 1, pageNumber: 0 });

    // Newest first, every request of the key, the customer's creation among them.
    const all = await logWhen(api, {}, (items) => items.some((e) => e.operationId === 'v1CreateOrganization'));
    expect(all.items.map((e) => e.operationId)).toEqual(['createPaymentAccount', 'v1CreateOrganization']);
    expect(all.items[1]).toMatchObject({ surface: 'v1', status: 201, objectIds: expect.arrayContaining([customer]) });
    expect((await log(api, { status: '422' })).items.map((e) => e.id)).toEqual([entry!.id]);
    expect((await log(api, { status: '2xx' })).items.map((e) => e.operationId)).toEqual(['v1CreateOrganization']);
    expect((await log(api, { operationId: 'createPaymentAccount' })).items.map((e) => e.id)).toEqual([entry!.id]);
    expect((await log(api, { organizationId: customer })).items.map((e) => e.id)).toEqual([entry!.id]);
    expect((await log(api, { objectId: customer })).totalItems).toBe(2);
    // Successful reads can be left out: what changed something or was refused remains.
    expectStatus(await api.GET('/organization/{organizationId}', { params: { path: { organizationId: customer } } }), 200);
    await logWhen(api, { objectId: customer }, (items) => items.length === 3);
    expect((await log(api, { objectId: customer, reads: false })).items.map((e) => e.operationId)).toEqual(['createPaymentAccount', 'v1CreateOrganization']);
    // Another partner's log holds none of it.
    expect((await log(server.api, { objectId: customer })).items).toEqual([]);
  });

  it('links a request to the objects it touched, at the sandbox time it was served', { timeout: testBudget }, async () => {
    const { key } = await otherPartner(server);
    const api = server.as(key);
    const { now } = await sandboxClock(api).set({ frozen: true });
    const customer = await createCustomer(server, { key, approved: true });
    const made = await order(server, customer, { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: solanaAddress() }, api);
    const ofOrder = await logWhen(api, { objectId: made.id }, (items) => items.length === 1);
    expect(ofOrder.items[0]).toMatchObject({ operationId: 'createOrder', status: 201, sandboxTime: now, organizationId: customer });
    expect(ofOrder.items[0]!.objectIds).toEqual(expect.arrayContaining([customer, made.id, made.quoteId]));
    const ofQuote = await log(api, { objectId: made.quoteId });
    expect(ofQuote.items.map((e) => e.operationId)).toEqual(['createOrder', 'createQuote']);
  });

  it('keeps 2 KiB of a successful read’s answer and all of a write’s; reads=false leaves out v1’s lists too', { timeout: testBudget }, async () => {
    const { key } = await otherPartner(server);
    const api = server.as(key);
    const customer = await createCustomer(server, { key, approved: true });
    const made: Schema<'Order'>[] = [];
    for (let i = 0; i < 5; i++) made.push(await order(server, customer, { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: solanaAddress() }, api));
    const list = await server.sendRaw('GET', '/orders?pageSize=30', { key });
    expect(list.status).toBe(200);
    const answer = Buffer.from(list.text_, 'utf8');
    expect(answer.length).toBeGreaterThan(readAnswerBytes);
    expectStatus(await api.POST('/ramp/orders', { body: {} }), 200);

    const page = await logWhen(api, {}, (items) => items.some((e) => e.operationId === 'v1ListOrders'));
    const read = page.items.find((e) => e.operationId === 'listOrders')!;
    expect(read).toMatchObject({ status: 200, truncated: true, responseBody: answer.subarray(0, readAnswerBytes).toString('utf8') });
    // A cut page names none of its items' ids.
    expect(read.objectIds).toEqual([]);
    const written = page.items.find((e) => e.operationId === 'createOrder' && e.objectIds.includes(made[4]!.id))!;
    expect(written).toMatchObject({ truncated: false });
    expect(JSON.parse(written.responseBody!)).toEqual(made[4]);
    // What changed something remains; GET /orders and v1's POST /ramp/orders are reads.
    const changes = await log(api, { reads: false, pageSize: 100 });
    expect(changes.items.map((e) => e.operationId).filter((id) => id === 'listOrders' || id === 'v1ListOrders')).toEqual([]);
    expect(changes.items.filter((e) => e.operationId === 'createOrder')).toHaveLength(5);
  });

  it('never stores a secret: webhook secrets, API keys, presigned URLs', { timeout: testBudget }, async () => {
    const { key, partnerId } = await otherPartner(server);
    const api = server.as(key);
    const subscription = expectStatus(await api.POST('/webhook_subscription', { body: { url: 'http://127.0.0.1:9/hook', eventType: 'orderUpdated' } }), 201);
    const created = expectStatus(await api.POST('/organization/{organizationId}/api_key', { params: { path: { organizationId: partnerId } } }), 201);
    const customer = await createCustomer(server, { key });
    const onboarding = expectStatus(await api.POST('/sandbox/ramp/customer/{customer_id}/onboarding', { params: { path: { customer_id: customer } } }), 201);
    const signature = /signature=([0-9a-f]+)/.exec(JSON.stringify(onboarding))![1]!;
    const secrets = [subscription.secret, created.key, key, signature];

    const page = await logWhen(api, {}, (items) => items.length === 4);
    const rows = await server.services.storage.db.selectFrom('request_log').selectAll().where('partner_id', '=', partnerId).execute();
    expect(rows).toHaveLength(4);
    for (const secret of secrets) expect(JSON.stringify(rows)).not.toContain(secret);
    const answers = Object.fromEntries(page.items.map((e) => [e.operationId, JSON.parse(e.responseBody!)]));
    expect(answers.createWebhookSubscription.secret).toBe('[redacted]');
    expect(answers.createApiKey.key).toBe(`${created.key.slice(0, 16)}[redacted]`);
    expect(JSON.stringify(answers.v1CreateOnboardingUrl ?? Object.values(answers).at(-1))).toContain('signature=[redacted]');
  });

  it('records a body the sandbox could not read and the refusals of polling reads, not their successes nor keyless requests', { timeout: testBudget }, async () => {
    const { key } = await otherPartner(server);
    const api = server.as(key);
    const broken = await server.sendRaw('POST', '/webhook_subscription', { key, headers: { 'Content-Type': 'application/json' }, raw: '{"url": ' });
    expect(broken.status).toBe(400);
    await log(api);
    expectStatus(await api.GET('/sandbox/events'), 200);
    expect((await server.sendRaw('GET', '/sandbox/events?after=-1', { key })).status).toBe(400);
    expect((await server.sendRaw('GET', '/organizations', { key: null })).status).toBe(401);
    const page = await logWhen(api, {}, (items) => items.length === 2);
    expect(page.items.map((e) => [e.operationId, e.status])).toEqual([
      ['listSandboxEvents', 400],
      [null, 400],
    ]);
    expect(page.items[1]).toMatchObject({ method: 'POST', path: '/webhook_subscription', requestBody: null });
    expect(JSON.parse(page.items[1]!.responseBody!)).toMatchObject({ type: 'https://docs.ramp.example/errors/invalid-request' });
  });

  it('keeps the newest entries of each partner and none past the age limit', async () => {
    const repository = requestLogRepository(server.services.storage.db);
    // A partner of its own (the log keeps no entry of a partner that does not exist: a deleted sandbox partner's).
    const { partnerId: partner } = await otherPartner(server);
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    const row = (at: number): RequestLogRow => ({
      id: uuidv7({ msecs: at }), partner_id: partner, organization_id: partner, operation_id: 'listOrders', method: 'GET', path: '/orders', surface: 'v2',
      status: 200, duration_ms: 1, received_at: new Date(at).toISOString(), sandbox_time: new Date(at).toISOString(), key_prefix: 'api_sand:0000000',
      object_ids: '', request_body: null, response_body: null, truncated: 0,
    });
    await repository.insert([0, 1, 2, 3, 4].map((i) => row(start + i * 1000)), { perPartner: 3, before: new Date(start).toISOString() });
    const since = new Date(start).toISOString();
    const kept = await repository.page(partner, { since }, { size: 10, number: 0 });
    expect(kept.items.map((r) => r.received_at)).toEqual([4, 3, 2].map((i) => new Date(start + i * 1000).toISOString()));
    // A day later, with a one-hour age limit: only the new entry is left.
    await repository.insert([row(start + 86_400_000)], { perPartner: 3, before: new Date(start + 86_400_000 - 3_600_000).toISOString() });
    expect((await repository.page(partner, { since }, { size: 10, number: 0 })).total).toBe(1);
  });
});

describe('a partner deleted while its requests are being logged', () => {
  it('keeps none of its entries, whichever of the delete and the log write runs first', { timeout: testBudget }, async () => {
    const server = await startTestServer();
    // The delete's transaction has run but not ended when the log's batch arrives (on another connection).
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    try {
      const { storage } = server.services;
      const partner = expectStatus(await server.api.POST('/sandbox/partners', { body: { displayName: 'Deleted while logged' } }), 201).id;
      const row: RequestLogRow = {
        id: entryId(), partner_id: partner, organization_id: partner, operation_id: 'deleteSandboxPartner', method: 'DELETE', path: `/sandbox/partners/${partner}`,
        surface: 'v2', status: 204, duration_ms: 1, received_at: new Date().toISOString(), sandbox_time: new Date().toISOString(), key_prefix: 'api_sand:0000000',
        object_ids: partner, request_body: null, response_body: null, truncated: 0,
      };
      let deleted!: () => void;
      const ran = new Promise<void>((resolve) => (deleted = resolve));
      const deleting = storage.db.transaction().execute(async (tx) => {
        await sandboxPartnersRepository(tx, storage.engine).deleteEverything(partner);
        deleted();
        await ended;
      });
      await ran;
      let written = false;
      const writing = requestLogRepository(storage.db, storage.engine).insert([row], { perPartner: 10, before: new Date(0).toISOString() }).finally(() => (written = true));
      // PostgreSQL: the write waits for the delete's lock on the partner (SQLite: for its one writer).
      if (storage.engine === 'postgres') {
        const waiting = sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'`;
        await eventually(async () => written || (await waiting.execute(storage.db)).rows[0]!.n > 0, undefined, 'the log write to end or wait for the delete');
        expect(written, 'the log write waited for the delete').toBe(false);
      }
      end();
      await deleting;
      await writing;
      expect(await storage.db.selectFrom('request_log').select('id').where('partner_id', '=', partner).execute()).toEqual([]);
    } finally {
      end();
      await server.close();
    }
  });
});

describe('a request log that cannot be written', () => {
  it('leaves every request answered, and says so in the sandbox log', { timeout: testBudget }, async () => {
    const server = await startTestServer();
    try {
      await sql`DROP TABLE request_log`.execute(server.services.storage.db);
      expectStatus(await server.api.GET('/organizations'), 200);
      expectStatus(await server.api.POST('/ramp/organization', { body: { displayName: 'Sin registro', type: 'personal' } }), 201);
      await eventually(() => server.logs.some((line) => line.includes('request log: entries not stored')));
      expectStatus(await server.api.GET('/organizations'), 200);
    } finally {
      await server.close();
    }
  });
});
