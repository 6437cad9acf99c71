/** v2 and v1 webhook subscriptions over HTTP: creation rules, the one-time secret, apartness, deletion. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/errors.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { person } from '../support/verification.ts';
import {  } from '../webhooks/support.ts';
import { createCustomer, otherPartner } from '../support/fixtures.ts';

const secretPattern = /^[A-Za-z0-9_-]{43}=$/;

async function count(server: TestServer, table: 'webhook_subscriptions') {
  const [row] = await server.services.storage.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).execute();
  return Number(row!.n);
}

describe('v2 webhook subscriptions (sandbox)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('creates a subscription with its secret once: 32 random bytes, base64url with = padding', async () => {
    const response = await server.call('POST', '/webhook_subscription', { body: { url: 'https://partner.example/hooks/a', eventType: 'orderUpdated' } });
    expect(response.status).toBe(201);
    const created = response.json_;
    expect(created).toMatchObject({ url: 'https://partner.example/hooks/a', eventType: 'orderUpdated' });
    expect(created.secret).toMatch(secretPattern);
    expect(Buffer.from(created.secret.slice(0, 43), 'base64url')).toHaveLength(32);
    expect(created.createdAt).toBe(created.updatedAt);

    const read = await server.call('GET', `/webhook_subscription/${created.id}`);
    expect(read.status).toBe(200);
    const { secret: _secret, ...withoutSecret } = created;
    expect(read.json_).toEqual(withoutSecret);
    expect(read.text_).not.toContain(created.secret);

    const other = await server.call('POST', '/webhook_subscription', { body: { url: 'https://partner.example/hooks/b', eventType: 'orderUpdated' } });
    expect(other.json_.secret).not.toBe(created.secret);
  });

  it('accepts http in the sandbox, loopback included', async () => {
    const response = await server.call('POST', '/webhook_subscription', { body: { url: 'http://127.0.0.1:9/hook', eventType: 'kycUpdated' } });
    expect(response.status).toBe(201);
  });

  it('allows one subscription per URL and event type: a second is 409 conflict and changes nothing', async () => {
    const body = { url: 'https://partner.example/dup', eventType: 'kybUpdated' };
    expect((await server.call('POST', '/webhook_subscription', { body })).status).toBe(201);
    const before = await count(server, 'webhook_subscriptions');
    const again = await server.call('POST', '/webhook_subscription', { body });
    expectProblem(again, 409, 'conflict');
    expect(await count(server, 'webhook_subscriptions')).toBe(before);
    // Another event type on the same URL is another subscription.
    expect((await server.call('POST', '/webhook_subscription', { body: { ...body, eventType: 'kycUpdated' } })).status).toBe(201);
  });

  it('decides concurrent duplicates once: exactly one 201', async () => {
    const body = { url: 'https://partner.example/race', eventType: 'paymentAccountUpdated' };
    const statuses = await Promise.all(Array.from({ length: 8 }, () => server.call('POST', '/webhook_subscription', { body }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
  });

  it.each([
    ['an unknown event type', { url: 'https://partner.example/x', eventType: 'order_updated' }, 'invalid-request'],
    ['a missing url', { eventType: 'orderUpdated' }, 'validation-error'],
    ['a relative url', { url: '/hooks', eventType: 'orderUpdated' }, 'validation-error'],
    ['an ftp url', { url: 'ftp://partner.example/x', eventType: 'orderUpdated' }, 'validation-error'],
    ['credentials in the url', { url: 'https://user:pw@partner.example/x', eventType: 'orderUpdated' }, 'validation-error'],
    ['an extra field', { url: 'https://partner.example/x', eventType: 'orderUpdated', secret: 'mine' }, 'validation-error'],
  ])('refuses %s with 400 and stores nothing', async (_, body, slug) => {
    const before = await count(server, 'webhook_subscriptions');
    const response = await server.call('POST', '/webhook_subscription', { body });
    expectProblem(response, 400, slug);
    expect(await count(server, 'webhook_subscriptions')).toBe(before);
  });

  it('lists the organization\'s v2 subscriptions oldest first, paged, without secrets', async () => {
    const { json_: page } = await server.call('GET', '/webhook_subscriptions?pageSize=2&pageNumber=0');
    expect(page.pageSize).toBe(2);
    expect(page.items).toHaveLength(2);
    expect(page.totalItems).toBeGreaterThanOrEqual(6);
    expect(page.totalPages).toBe(Math.ceil(page.totalItems / 2));
    const { json_: all } = await server.call('GET', '/webhook_subscriptions?pageSize=100');
    expect(all.items.map((s: any) => s.createdAt)).toEqual([...all.items.map((s: any) => s.createdAt)].sort());
    expect(all.items.every((s: any) => !('secret' in s))).toBe(true);
    expect(all.items[0].url).toBe('https://partner.example/hooks/a');
    const past = await server.call('GET', `/webhook_subscriptions?pageNumber=${all.totalPages + 3}`);
    expect(past.json_.items).toEqual([]);
    expect((await server.call('GET', '/webhook_subscriptions?pageSize=0')).status).toBe(400);
  });

  it('belongs to the key\'s organization: another partner neither lists, reads nor deletes it', async () => {
    const mine = (await server.call('POST', '/webhook_subscription', { body: { url: 'https://partner.example/private', eventType: 'orderUpdated' } })).json_;
    const other = await otherPartner(server);
    expect((await server.call('GET', '/webhook_subscriptions', { key: other.key })).json_.totalItems).toBe(0);
    expect((await server.call('GET', `/webhook_subscription/${mine.id}`, { key: other.key })).status).toBe(404);
    expect((await server.call('DELETE', `/webhook_subscription/${mine.id}`, { key: other.key })).status).toBe(404);
    expect((await server.call('GET', `/webhook_subscription/${mine.id}/deliveries`, { key: other.key })).status).toBe(404);
    // The same URL and event type is free for the other partner.
    expect((await server.call('POST', '/webhook_subscription', { key: other.key, body: { url: 'https://partner.example/private', eventType: 'orderUpdated' } })).status).toBe(201);
    expect((await server.call('GET', `/webhook_subscription/${mine.id}`)).status).toBe(200);
  });

  it('deletes a subscription: 204, then 404 for every read, and the URL can be subscribed again', async () => {
    const body = { url: 'https://partner.example/delete-me', eventType: 'orderUpdated' };
    const created = (await server.call('POST', '/webhook_subscription', { body })).json_;
    const deleted = await server.call('DELETE', `/webhook_subscription/${created.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text_).toBe('');
    for (const [method, path] of [['GET', `/webhook_subscription/${created.id}`], ['DELETE', `/webhook_subscription/${created.id}`], ['GET', `/webhook_subscription/${created.id}/deliveries`]] as const) {
      const response = await server.call(method, path);
      expectProblem(response, 404, 'not-found', `${method} ${path}`);
    }
    expect((await server.call('POST', '/webhook_subscription', { body })).status).toBe(201);
  });

  it('answers 400 for a malformed id, 401 without a key, 405 for another method', async () => {
    expectProblem(await server.call('GET', '/webhook_subscription/not-a-uuid'), 400, 'invalid-request');
    expectProblem(await server.call('GET', '/webhook_subscriptions', { key: null }), 401, 'unauthorized');
    const put = await server.call('PUT', `/webhook_subscription/${crypto.randomUUID()}`, { body: {} });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toMatch(/GET/);
  });

  it('lists the deliveries of an event, and re-sends it as a new delivery with the same eventId', async () => {
    // Nothing listens on port 9: the attempts fail, the deliveries are listed all the same.
    const subscription = (await server.call('POST', '/webhook_subscription', { body: { url: 'http://127.0.0.1:9/hooks', eventType: 'kycUpdated' } })).json_;
    const customer = await createCustomer(server, { type: 'personal' });
    expect((await server.call('PUT', `/organization/${customer}/kyc`, { body: person })).status).toBeLessThan(300);

    const listed = await server.call('GET', `/webhook_subscription/${subscription.id}/deliveries`);
    expect(listed.status).toBe(200);
    expect(listed.json_.items).toHaveLength(1);
    const [first] = listed.json_.items;
    expect(first).toMatchObject({ subscriptionId: subscription.id, eventType: 'kycUpdated', eventId: expect.any(String) });

    const resent = await server.call('POST', `/sandbox/webhook_event/${first.eventId}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.json_).toMatchObject({ eventId: first.eventId, eventType: 'kycUpdated' });
    // One new delivery per current kycUpdated subscription of the partner: this test's among them.
    const mine = resent.json_.deliveries.filter((d: { subscriptionId: string }) => d.subscriptionId === subscription.id);
    expect(mine).toEqual([expect.objectContaining({ eventId: first.eventId, status: 'pending' })]);
    expect(mine[0].id).not.toBe(first.id);
    const after = (await server.call('GET', `/webhook_subscription/${subscription.id}/deliveries`)).json_.items;
    expect(after.map((d: { id: string }) => d.id).sort()).toEqual([first.id, mine[0].id].sort());
    expect(after.every((d: { eventId: string }) => d.eventId === first.eventId)).toBe(true);
  });
});

describe('v2 webhook subscriptions in production', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_ENV: 'production' } });
  });
  afterAll(() => server.close());

  it('accepts https on a public host', async () => {
    const response = await server.call('POST', '/webhook_subscription', { body: { url: 'https://hooks.partner.example/ramp', eventType: 'orderUpdated' } });
    expect(response.status).toBe(201);
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
    const response = await server.call('POST', '/webhook_subscription', { body: { url, eventType: 'orderUpdated' } });
    expectProblem(response, 400, 'validation-error');
    expect(response.json_.errors).toEqual([{ pointer: '/url', detail: expect.stringContaining(detail) }]);
    expect(await count(server, 'webhook_subscriptions')).toBe(before);
  });

  it('refuses the sandbox re-send with 403 forbidden', async () => {
    const response = await server.call('POST', `/sandbox/webhook_event/${crypto.randomUUID()}/resend`);
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
    const response = await server.call('POST', '/ramp/webhook', { body: { url: 'https://partner.example/v1', eventType: 'order_updated' } });
    expect(response.status).toBe(201);
    expect(response.json_.secret).toMatch(secretPattern);
    const read = await server.call('GET', `/ramp/webhook/${response.json_.id}`);
    expect(read.status).toBe(200);
    const { secret: _secret, ...withoutSecret } = response.json_;
    expect(read.json_).toEqual(withoutSecret);
  });

  it('refuses http even in the sandbox, and unknown or v2 event names, with a v1 error', async () => {
    for (const body of [
      { url: 'http://partner.example/v1', eventType: 'order_updated' },
      { url: 'https://partner.example/v1', eventType: 'orderUpdated' },
      { url: 'https://partner.example/v1' },
    ]) {
      const response = await server.call('POST', '/ramp/webhook', { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof response.json_.error).toBe('string');
    }
  });

  it('answers 409 for the same URL and event type', async () => {
    const body = { url: 'https://partner.example/v1-dup', eventType: 'kyc_updated' };
    expect((await server.call('POST', '/ramp/webhook', { body })).status).toBe(201);
    const again = await server.call('POST', '/ramp/webhook', { body });
    expect(again.status).toBe(409);
    expect(again.json_).toEqual({ error: 'A subscription for this url and eventType already exists' });
  });

  it('keeps v1 and v2 apart: neither lists, reads nor deletes the other\'s', async () => {
    const url = 'https://partner.example/both';
    const v1 = (await server.call('POST', '/ramp/webhook', { body: { url, eventType: 'order_updated' } })).json_;
    const v2 = (await server.call('POST', '/webhook_subscription', { body: { url, eventType: 'orderUpdated' } })).json_;
    const v2List = (await server.call('GET', '/webhook_subscriptions?pageSize=100')).json_.items.map((s: any) => s.id);
    expect(v2List).toContain(v2.id);
    expect(v2List).not.toContain(v1.id);
    const v1List = (await server.call('POST', '/ramp/webhooks', { body: { pageSize: 100 } })).json_.items.map((s: any) => s.id);
    expect(v1List).toContain(v1.id);
    expect(v1List).not.toContain(v2.id);
    expect((await server.call('GET', `/webhook_subscription/${v1.id}`)).status).toBe(404);
    expect((await server.call('GET', `/webhook_subscription/${v1.id}/deliveries`)).status).toBe(404);
    expect((await server.call('DELETE', `/webhook_subscription/${v1.id}`)).status).toBe(404);
    expect((await server.call('GET', `/ramp/webhook/${v2.id}`)).json_).toEqual({ error: 'Webhook not found' });
    expect((await server.call('DELETE', `/ramp/webhook/${v2.id}`)).status).toBe(404);
  });

  it('lists with the pagination body, filters checked but ignored, and a next link', async () => {
    const empty = await server.call('POST', '/ramp/webhooks');
    expect(empty.status).toBe(200);
    expect(empty.json_).toMatchObject({ pageNumber: 0, pageSize: 30, next: null });
    const total = empty.json_.totalItems;
    expect(total).toBeGreaterThanOrEqual(3);
    const first = await server.call('POST', '/ramp/webhooks', { body: { pageSize: 1, filters: { fromDate: '2999-01-01T00:00:00Z' } } });
    expect(first.json_.items).toHaveLength(1);
    expect(first.json_.totalItems).toBe(total);
    expect(first.json_.next).toBe(`${server.services.config.baseUrl}/ramp/webhooks?pageNumber=1&pageSize=1`);
    const second = await server.call('POST', '/ramp/webhooks?pageNumber=1&pageSize=1', { body: { pageSize: 1 } });
    expect(second.json_.pageNumber).toBe(1);
    expect(second.json_.items[0].id).not.toBe(first.json_.items[0].id);
    expect(second.json_.items.every((s: any) => !('secret' in s))).toBe(true);
  });

  it.each([
    [{ pageSize: 101 }, 'You can only request 100 items at a time'],
    [{ pageSize: 0 }, 'Page size must be greater than 0'],
  ])('answers the documented messages for %j', async (body, error) => {
    const response = await server.call('POST', '/ramp/webhooks', { body });
    expect(response.status).toBe(400);
    expect(response.json_).toEqual({ error });
  });

  it('refuses a malformed list body and filters without fromDate', async () => {
    expect((await server.call('POST', '/ramp/webhooks', { raw: '{', headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
    expect((await server.call('POST', '/ramp/webhooks', { body: { filters: {} } })).status).toBe(400);
  });

  it('deletes: 204 then 404 "Webhook not found"', async () => {
    const created = (await server.call('POST', '/ramp/webhook', { body: { url: 'https://partner.example/v1-del', eventType: 'swap_updated' } })).json_;
    expect((await server.call('DELETE', `/ramp/webhook/${created.id}`)).status).toBe(204);
    const again = await server.call('DELETE', `/ramp/webhook/${created.id}`);
    expect(again.status).toBe(404);
    expect(again.json_).toEqual({ error: 'Webhook not found' });
    expect((await server.call('GET', `/ramp/webhook/${created.id}`)).status).toBe(404);
  });
});
