/** v2 and v1 webhook subscriptions over HTTP: creation rules, the one-time secret, apartness, deletion. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type Api, type RequestBody } from '../../support/api.ts';
import { expectPlainError, expectProblem } from '../../support/errors.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { person } from '../../support/verification.ts';
import { createCustomer, deliveries, otherPartner } from '../../support/fixtures.ts';

const secretPattern = /^[A-Za-z0-9_-]{43}=$/;
type SubscriptionRequest = RequestBody<'createWebhookSubscription'>;
type V1SubscriptionRequest = RequestBody<'v1CreateWebhook'>;

async function count(server: TestServer, table: 'webhook_subscriptions') {
  const [row] = await server.services.storage.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).execute();
  return Number(row!.n);
}

const subscribe = (api: Api, body: SubscriptionRequest) => api.POST('/webhook_subscription', { body });
const read = (api: Api, id: string) => api.GET('/webhook_subscription/{id}', { params: { path: { id } } });
const remove = (api: Api, id: string) => api.DELETE('/webhook_subscription/{id}', { params: { path: { id } } });
const listDeliveries = (api: Api, id: string, query: { eventId?: string } = {}) => api.GET('/webhook_subscription/{id}/deliveries', { params: { path: { id }, query } });
const list = (api: Api, query: { pageSize?: number; pageNumber?: number } = {}) => api.GET('/webhook_subscriptions', { params: { query } });
const subscribeV1 = (api: Api, body: V1SubscriptionRequest) => api.POST('/ramp/webhook', { body });
const readV1 = (api: Api, id: string) => api.GET('/ramp/webhook/{id}', { params: { path: { id } } });
const removeV1 = (api: Api, id: string) => api.DELETE('/ramp/webhook/{id}', { params: { path: { id } } });
const listV1 = (api: Api, body?: RequestBody<'v1ListWebhooks'>, query: { pageSize?: number; pageNumber?: number } = {}) =>
  api.POST('/ramp/webhooks', { params: { query }, ...(body === undefined ? {} : { body }) });

describe('v2 webhook subscriptions (sandbox)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('creates a subscription with its secret once: 32 random bytes, base64url with = padding', async () => {
    const created = expectStatus(await subscribe(server.api, { url: 'https://partner.example/hooks/a', eventType: 'orderUpdated' }), 201);
    expect(created).toMatchObject({ url: 'https://partner.example/hooks/a', eventType: 'orderUpdated' });
    expect(created.secret).toMatch(secretPattern);
    expect(Buffer.from(created.secret.slice(0, 43), 'base64url')).toHaveLength(32);
    expect(created.createdAt).toBe(created.updatedAt);

    const found = expectStatus(await read(server.api, created.id), 200);
    const { secret: _secret, ...withoutSecret } = created;
    expect(found).toEqual(withoutSecret);
    expect(JSON.stringify(found)).not.toContain(created.secret);

    const other = expectStatus(await subscribe(server.api, { url: 'https://partner.example/hooks/b', eventType: 'orderUpdated' }), 201);
    expect(other.secret).not.toBe(created.secret);
  });

  it('accepts http in the sandbox, loopback included', async () => {
    expectStatus(await subscribe(server.api, { url: 'http://127.0.0.1:9/hook', eventType: 'kycUpdated' }), 201);
  });

  it('allows one subscription per URL and event type: a second is 409 conflict and changes nothing', async () => {
    const body: SubscriptionRequest = { url: 'https://partner.example/dup', eventType: 'kybUpdated' };
    expectStatus(await subscribe(server.api, body), 201);
    const before = await count(server, 'webhook_subscriptions');
    expectProblem(await subscribe(server.api, body), 409, 'conflict');
    expect(await count(server, 'webhook_subscriptions')).toBe(before);
    // Another event type on the same URL is another subscription.
    expectStatus(await subscribe(server.api, { ...body, eventType: 'kycUpdated' }), 201);
  });

  it('decides concurrent duplicates once: exactly one 201', async () => {
    const body: SubscriptionRequest = { url: 'https://partner.example/race', eventType: 'paymentAccountUpdated' };
    const statuses = await Promise.all(Array.from({ length: 8 }, async () => (await subscribe(server.api, body)).response.status));
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
  });

  it.each([
    ['a relative url', '/hooks'],
    ['an ftp url', 'ftp://partner.example/x'],
    ['credentials in the url', 'https://user:pw@partner.example/x'],
  ])('refuses %s with validation-error and stores nothing', async (_, url) => {
    const before = await count(server, 'webhook_subscriptions');
    expectProblem(await subscribe(server.api, { url, eventType: 'orderUpdated' }), 400, 'validation-error');
    expect(await count(server, 'webhook_subscriptions')).toBe(before);
  });

  // Bodies the contract refuses: an event type its enum does not hold, no url, a field it does not have.
  it.each([
    ['an unknown event type', { url: 'https://partner.example/x', eventType: 'order_updated' }, 'invalid-request'],
    ['a missing url', { eventType: 'orderUpdated' }, 'validation-error'],
    ['an extra field', { url: 'https://partner.example/x', eventType: 'orderUpdated', secret: 'mine' }, 'validation-error'],
  ])('refuses %s with 400 and stores nothing', async (_, body, slug) => {
    const before = await count(server, 'webhook_subscriptions');
    expectProblem(await server.sendRaw('POST', '/webhook_subscription', { body }), 400, slug);
    expect(await count(server, 'webhook_subscriptions')).toBe(before);
  });

  it('lists the organization\'s v2 subscriptions oldest first, paged, without secrets', async () => {
    const page = expectStatus(await list(server.api, { pageSize: 2, pageNumber: 0 }), 200);
    expect(page.pageSize).toBe(2);
    expect(page.items).toHaveLength(2);
    expect(page.totalItems).toBeGreaterThanOrEqual(6);
    expect(page.totalPages).toBe(Math.ceil(page.totalItems / 2));
    const all = expectStatus(await list(server.api, { pageSize: 100 }), 200);
    expect(all.items.map((s) => s.createdAt)).toEqual([...all.items.map((s) => s.createdAt)].sort());
    expect(all.items.every((s) => !('secret' in s))).toBe(true);
    expect(all.items[0]!.url).toBe('https://partner.example/hooks/a');
    expect(expectStatus(await list(server.api, { pageNumber: all.totalPages + 3 }), 200).items).toEqual([]);
    expectProblem(await list(server.api, { pageSize: 0 }), 400, 'invalid-request');
  });

  it('belongs to the key\'s organization: another partner neither lists, reads nor deletes it', async () => {
    const mine = expectStatus(await subscribe(server.api, { url: 'https://partner.example/private', eventType: 'orderUpdated' }), 201);
    const other = server.as((await otherPartner(server)).key);
    expect(expectStatus(await list(other), 200).totalItems).toBe(0);
    expectProblem(await read(other, mine.id), 404, 'not-found');
    expectProblem(await remove(other, mine.id), 404, 'not-found');
    expectProblem(await listDeliveries(other, mine.id), 404, 'not-found');
    // The same URL and event type is free for the other partner.
    expectStatus(await subscribe(other, { url: 'https://partner.example/private', eventType: 'orderUpdated' }), 201);
    expectStatus(await read(server.api, mine.id), 200);
  });

  it('deletes a subscription: 204, then 404 for every read, and the URL can be subscribed again', async () => {
    const body: SubscriptionRequest = { url: 'https://partner.example/delete-me', eventType: 'orderUpdated' };
    const created = expectStatus(await subscribe(server.api, body), 201);
    expectStatus(await remove(server.api, created.id), 204);
    expectProblem(await read(server.api, created.id), 404, 'not-found', 'GET after DELETE');
    expectProblem(await remove(server.api, created.id), 404, 'not-found', 'DELETE after DELETE');
    expectProblem(await listDeliveries(server.api, created.id), 404, 'not-found', 'GET deliveries after DELETE');
    expectStatus(await subscribe(server.api, body), 201);
  });

  it('answers 400 for a malformed id, 401 without a key, 405 for another method', async () => {
    expectProblem(await read(server.api, 'not-a-uuid'), 400, 'invalid-request');
    expectProblem(await list(server.as(null)), 401, 'unauthorized');
    // A method the contract does not give this path.
    const put = await server.sendRaw('PUT', `/webhook_subscription/${crypto.randomUUID()}`, { body: {} });
    expectProblem(put, 405, 'method-not-allowed');
    expect(put.headers.get('allow')).toMatch(/GET/);
  });

  it('lists the deliveries of an event, and re-sends it as a new delivery with the same eventId once the first has settled', async () => {
    // Nothing listens on port 9: the attempts fail, the deliveries are listed all the same.
    const subscription = expectStatus(await subscribe(server.api, { url: 'http://127.0.0.1:9/hooks', eventType: 'kycUpdated' }), 201);
    const customer = await createCustomer(server, { type: 'personal' });
    expectStatus(await server.api.PUT('/organization/{organizationId}/kyc', { params: { path: { organizationId: customer } }, body: person }), 200);

    const listed = expectStatus(await listDeliveries(server.api, subscription.id), 200);
    expect(listed.items).toHaveLength(1);
    const first = listed.items[0]!;
    expect(first).toMatchObject({ subscriptionId: subscription.id, eventType: 'kycUpdated', eventId: expect.any(String) });

    const resend = () => server.api.POST('/sandbox/webhook_event/{eventId}/resend', { params: { path: { eventId: first.eventId } } });
    // While the first delivery is pending (retrying), a re-send answers it and makes no other.
    const whilePending = expectStatus(await resend(), 202);
    expect(whilePending.deliveries.filter((d) => d.subscriptionId === subscription.id).map((d) => d.id)).toEqual([first.id]);
    expect(whilePending.newDeliveryIds).not.toContain(first.id);
    // Once it has settled (abandoned: nothing ever answers on port 9), a re-send is a new delivery.
    await server.services.storage.db.updateTable('webhook_deliveries').set({ status: 'abandoned', next_attempt_at: null }).where('id', '=', first.id).execute();
    const resent = expectStatus(await resend(), 202);
    expect(resent).toMatchObject({ eventId: first.eventId, eventType: 'kycUpdated' });
    // One new delivery per current kycUpdated subscription of the partner: this test's among them.
    const mine = resent.deliveries.filter((d) => d.subscriptionId === subscription.id);
    expect(mine).toEqual([expect.objectContaining({ eventId: first.eventId, status: 'pending' })]);
    expect(mine[0]!.id).not.toBe(first.id);
    expect(resent.newDeliveryIds).toContain(mine[0]!.id);
    const after = await deliveries(server.api, subscription.id);
    expect(after.map((d) => d.id).sort()).toEqual([first.id, mine[0]!.id].sort());
    expect(after.every((d) => d.eventId === first.eventId)).toBe(true);
    // The deliveries of one event, newest first: the re-send, then the first.
    const ofEvent = expectStatus(await listDeliveries(server.api, subscription.id, { eventId: first.eventId.toUpperCase() }), 200);
    expect(ofEvent.items.map((d) => d.id)).toEqual([mine[0]!.id, first.id]);
    expect(ofEvent.totalItems).toBe(2);
    const other = expectStatus(await listDeliveries(server.api, subscription.id, { eventId: crypto.randomUUID() }), 200);
    expect(other).toMatchObject({ items: [], totalItems: 0 });
    expectProblem(await server.sendRaw('GET', `/webhook_subscription/${subscription.id}/deliveries?eventId=not-an-id`), 400, 'invalid-request');
  });
});

describe('v2 webhook subscriptions in production', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_ENV: 'production' } });
  });
  afterAll(() => server.close());

  it('accepts https on a public host', async () => {
    expectStatus(await subscribe(server.api, { url: 'https://hooks.partner.example/ramp', eventType: 'orderUpdated' }), 201);
  });

  it.each([
    ['http', 'http://hooks.partner.example/ramp', 'must use https in production'],
    ['loopback', 'https://127.0.0.1/ramp', 'loopback'],
    ['localhost', 'https://localhost:8443/ramp', 'loopback'],
    ['a private network', 'https://10.20.30.40/ramp', 'loopback'],
    ['link-local metadata', 'https://169.254.169.254/latest', 'loopback'],
    ['IPv6 loopback', 'https://[::1]/ramp', 'loopback'],
    ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/ramp', 'loopback'],
    ['a decimal loopback', 'https://2130706433/ramp', 'loopback'],
  ])('refuses %s with validation-error on /url and stores nothing', async (_, url, detail) => {
    const before = await count(server, 'webhook_subscriptions');
    const refused = expectProblem(await subscribe(server.api, { url, eventType: 'orderUpdated' }), 400, 'validation-error');
    expect(refused.errors).toEqual([{ pointer: '/url', detail: expect.stringContaining(detail) }]);
    expect(await count(server, 'webhook_subscriptions')).toBe(before);
  });

  it('refuses the sandbox re-send with 403 forbidden', async () => {
    const response = await server.api.POST('/sandbox/webhook_event/{eventId}/resend', { params: { path: { eventId: crypto.randomUUID() } } });
    expectProblem(response, 403, 'forbidden');
  });
});

describe('v1 webhook subscriptions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('creates an https subscription with its secret once, and reads it without', async () => {
    const created = expectStatus(await subscribeV1(server.api, { url: 'https://partner.example/v1', eventType: 'order_updated' }), 201);
    expect(created.secret).toMatch(secretPattern);
    const { secret: _secret, ...withoutSecret } = created;
    expect(expectStatus(await readV1(server.api, created.id), 200)).toEqual(withoutSecret);
  });

  it('refuses http even in the sandbox, and unknown or v2 event names, with a v1 error', async () => {
    expectPlainError(await subscribeV1(server.api, { url: 'http://partner.example/v1', eventType: 'order_updated' }), 400);
    // Bodies the contract refuses: a v2 event name, no event type.
    for (const body of [{ url: 'https://partner.example/v1', eventType: 'orderUpdated' }, { url: 'https://partner.example/v1' }]) {
      expectPlainError(await server.sendRaw('POST', '/ramp/webhook', { body }), 400, JSON.stringify(body));
    }
  });

  it('answers 409 for the same URL and event type', async () => {
    const body: V1SubscriptionRequest = { url: 'https://partner.example/v1-dup', eventType: 'kyc_updated' };
    expectStatus(await subscribeV1(server.api, body), 201);
    expect(expectPlainError(await subscribeV1(server.api, body), 409)).toEqual({ error: 'A subscription for this url and eventType already exists' });
  });

  it('keeps v1 and v2 apart: neither lists, reads nor deletes the other\'s', async () => {
    const url = 'https://partner.example/both';
    const v1 = expectStatus(await subscribeV1(server.api, { url, eventType: 'order_updated' }), 201);
    const v2 = expectStatus(await subscribe(server.api, { url, eventType: 'orderUpdated' }), 201);
    const v2List = expectStatus(await list(server.api, { pageSize: 100 }), 200).items.map((s) => s.id);
    expect(v2List).toContain(v2.id);
    expect(v2List).not.toContain(v1.id);
    const v1List = expectStatus(await listV1(server.api, { pageSize: 100 }), 200).items.map((s) => s.id);
    expect(v1List).toContain(v1.id);
    expect(v1List).not.toContain(v2.id);
    expectProblem(await read(server.api, v1.id), 404, 'not-found');
    expectProblem(await listDeliveries(server.api, v1.id), 404, 'not-found');
    expectProblem(await remove(server.api, v1.id), 404, 'not-found');
    expect(expectPlainError(await readV1(server.api, v2.id), 404)).toEqual({ error: 'Webhook not found' });
    expectPlainError(await removeV1(server.api, v2.id), 404);
  });

  it('lists with the pagination body, filters checked but ignored, and a next link', async () => {
    const empty = expectStatus(await listV1(server.api), 200);
    expect(empty).toMatchObject({ pageNumber: 0, pageSize: 30, next: null });
    const total = empty.totalItems;
    expect(total).toBeGreaterThanOrEqual(3);
    const first = expectStatus(await listV1(server.api, { pageSize: 1, filters: { fromDate: '2999-01-01T00:00:00Z' } }), 200);
    expect(first.items).toHaveLength(1);
    expect(first.totalItems).toBe(total);
    expect(first.next).toBe(`${server.services.config.baseUrl}/ramp/webhooks?pageNumber=1&pageSize=1`);
    const second = expectStatus(await listV1(server.api, { pageSize: 1 }, { pageNumber: 1, pageSize: 1 }), 200);
    expect(second.pageNumber).toBe(1);
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    expect(second.items.every((s) => !('secret' in s))).toBe(true);
  });

  it.each([
    [{ pageSize: 101 }, 'You can only request 100 items at a time'],
    [{ pageSize: 0 }, 'Page size must be greater than 0'],
  ])('answers the documented messages for %j', async (body, error) => {
    expect(expectPlainError(await listV1(server.api, body), 400)).toEqual({ error });
  });

  it('refuses a malformed list body and filters without fromDate', async () => {
    // A body that is not JSON, and filters without their required fromDate.
    expectPlainError(await server.sendRaw('POST', '/ramp/webhooks', { raw: '{', headers: { 'Content-Type': 'application/json' } }), 400);
    expectPlainError(await server.sendRaw('POST', '/ramp/webhooks', { body: { filters: {} } }), 400);
  });

  it('deletes: 204 then 404 "Webhook not found"', async () => {
    const created = expectStatus(await subscribeV1(server.api, { url: 'https://partner.example/v1-del', eventType: 'swap_updated' }), 201);
    expectStatus(await removeV1(server.api, created.id), 204);
    expect(expectPlainError(await removeV1(server.api, created.id), 404)).toEqual({ error: 'Webhook not found' });
    expectPlainError(await readV1(server.api, created.id), 404);
  });
});
