/**
 * The sandbox operations the console is built on, over HTTP: the event feed and timelines
 * (listSandboxEvents), deliveries with their bodies, signatures and answers
 * (listSandboxWebhookDeliveries), the console's page and files, and all four in production.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../../client/index.ts';
import { expectStatus, type Api } from '../../support/api.ts';
import { expectProblem } from '../../support/errors.ts';
import { approve, createCustomer, keyedBusinessChild, order, solanaAddress, type V2Payload } from '../../support/fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { eventually, testBudget } from '../../support/wait.ts';
import { eventIdOf, referenceJcs, startReceiver, subscribe, subscribeV1, type Receiver } from '../../support/webhooks.ts';

/** `X-Signature` computed apart from the server: HMAC-SHA256 of the body, keyed with the base64url-decoded secret. */
const signatureOf = (body: string, secret: string) => `sha256=${createHmac('sha256', Buffer.from(secret, 'base64url')).update(body, 'utf8').digest('hex')}`;

type FeedEvent = Schema<'SandboxEvent'>;

/** The body of a v2 `orderUpdated` event of the feed: listSandboxEvents gives each event's webhook body as it was recorded. */
function orderUpdated(e: FeedEvent): V2Payload<'orderUpdated'> {
  if (e.surface !== 'v2' || e.eventType !== 'orderUpdated') throw new Error(`not a v2 orderUpdated event: ${e.surface} ${e.eventType}`);
  // Checked just above: the webhook body of a v2 orderUpdated (OrderUpdatedEvent).
  return e.body as V2Payload<'orderUpdated'>;
}

/** `listSandboxEvents`: the feed after a cursor, or one subject's timeline. */
const feed = async (api: Api, query: { after?: number; subjectId?: string; pageSize?: number } = {}) =>
  expectStatus(await api.GET('/sandbox/events', { params: { query } }), 200);

/** `listSandboxWebhookDeliveries`: the deliveries of a v1 or v2 subscription with their bodies, signatures and attempts. */
const sandboxDeliveries = (api: Api, id: string, query: { eventId?: string } = {}) => api.GET('/sandbox/webhook_subscription/{id}/deliveries', { params: { path: { id }, query } });

describe('sandbox console operations', () => {
  let server: TestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startTestServer();
    receiver = await startReceiver((path, count) => (path === '/flaky' && count === 1 ? { status: 503, body: 'try later' } : { status: 200, body: `{"received":true,"padding":"${'x'.repeat(600)}"}` }));
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  /** A customer with an approved KYC and an onramp order: the events these tests read. */
  async function onramp() {
    const customerId = await createCustomer(server);
    await approve(server, customerId);
    const created = await order(server, customerId, { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: solanaAddress() });
    return { customerId, orderId: created.id };
  }

  /** `simulateDeposit`: the SPEI deposit of an onramp order arrives. */
  const deposit = async (organizationId: string, id: string, body: Schema<'SimulateDepositRequest'> = {}) =>
    expectStatus(await server.api.POST('/sandbox/organization/{organizationId}/order/{id}/deposit', { params: { path: { organizationId, id } }, body }), 200);

  it('reads every event after a cursor, oldest first, with dense cursors, and an order timeline by subjectId', { timeout: testBudget }, async () => {
    const before = await feed(server.api);
    const { customerId, orderId } = await onramp();
    await deposit(customerId, orderId);
    // The order completes on its own: the feed shows it without being asked about the order.
    const events = await eventually(async () => {
      const page = await feed(server.api, { after: before.nextCursor });
      return page.items.some((e) => e.eventType === 'orderUpdated' && orderUpdated(e).order.status === 'completed') && page;
    });
    const cursors = events.items.map((e) => e.cursor);
    expect(cursors).toEqual(cursors.map((_, i) => before.nextCursor + 1 + i));
    expect(events.nextCursor).toBe(cursors.at(-1));
    expect(events.items.map((e) => `${e.surface} ${e.eventType}`)).toContain('v2 kycUpdated');
    expect(events.items.map((e) => `${e.surface} ${e.eventType}`)).toContain('v1 kyc_updated');

    const timeline = await feed(server.api, { subjectId: orderId });
    // Creation sends no event (createOrder): every status change after it does.
    expect(timeline.items.map((e) => orderUpdated(e).order.status)).toEqual(['funded', 'completed']);
    for (const e of timeline.items) expect(e).toMatchObject({ surface: 'v2', eventType: 'orderUpdated', organizationId: customerId, subjectId: orderId, occurredAt: orderUpdated(e).occurredAt, eventId: orderUpdated(e).eventId });

    // Paging: one at a time from the start reaches the same events.
    const first = await feed(server.api, { after: before.nextCursor, pageSize: 1 });
    expect(first.items.map((e) => e.cursor)).toEqual([before.nextCursor + 1]);
    const nothing = await feed(server.api, { after: events.nextCursor + 1000 });
    expect(nothing).toEqual({ items: [], nextCursor: events.nextCursor + 1000 });
    // The contract takes any cursor up to 2^53 - 1, past every position either engine stores.
    for (const after of [2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
      expect(await feed(server.api, { after, subjectId: orderId })).toEqual({ items: [], nextCursor: after });
    }
  });

  it("shows a key only its own organization's events: a customer's key sees its own, not its siblings'", async () => {
    const { customerId } = await onramp();
    const child = await keyedBusinessChild(server);
    const mine = await feed(server.as(child.key), { pageSize: 100 });
    expect(mine.items.every((e) => e.organizationId === child.id)).toBe(true);
    const sibling = await feed(server.as(child.key), { subjectId: customerId });
    expect(sibling.items).toEqual([]);
  });

  it('refuses a bad cursor or subject with invalid-request', async () => {
    // A negative or non-numeric cursor and a subject that is no UUID: what no typed client sends.
    expectProblem(await server.sendRaw('GET', '/sandbox/events?after=-1'), 400, 'invalid-request');
    expectProblem(await server.sendRaw('GET', '/sandbox/events?after=abc'), 400, 'invalid-request');
    expectProblem(await server.sendRaw('GET', '/sandbox/events?subjectId=not-a-uuid'), 400, 'invalid-request');
  });

  it('shows each delivery with its URL, exact body, a signature that verifies, and every attempt with its answer', { timeout: testBudget }, async () => {
    const { id, secret } = await subscribe(server, `${receiver.url}/flaky`, 'orderUpdated');
    const { customerId, orderId } = await onramp();
    await deposit(customerId, orderId, { autoComplete: false });
    const delivery = await eventually(async () => {
      const page = expectStatus(await sandboxDeliveries(server.api, id), 200);
      // The subscription is to orderUpdated: each body is an OrderUpdatedEvent.
      const found = page.items.find((d) => (JSON.parse(d.body) as V2Payload<'orderUpdated'>).order.id === orderId);
      return found?.status === 'delivered' && found;
    }).catch(async (error) => {
      throw new Error(`${error}: ${JSON.stringify((await sandboxDeliveries(server.api, id)).data).slice(0, 3000)}`);
    });
    expect(delivery).toMatchObject({ subscriptionId: id, surface: 'v2', eventType: 'orderUpdated', url: `${receiver.url}/flaky`, nextAttemptAt: null });
    // The body is the very bytes the receiver got, canonical, and the signature is theirs.
    const got = receiver.to('/flaky').filter((r) => eventIdOf(r) === delivery.eventId);
    expect(got.map((r) => r.raw.toString('utf8'))).toEqual([delivery.body, delivery.body]);
    expect(delivery.body).toBe(referenceJcs(JSON.parse(delivery.body)));
    expect(delivery.signature).toBe(signatureOf(delivery.body, secret));
    expect(got.map((r) => r.headers['x-signature'])).toEqual([delivery.signature, delivery.signature]);
    expect(delivery.attempts).toHaveLength(2);
    expect(delivery.attempts[0]).toMatchObject({ number: 1, statusCode: 503, error: null, responseExcerpt: 'try later' });
    expect(delivery.attempts[1]).toMatchObject({ number: 2, statusCode: 200, error: null });
    // The first 512 bytes of the answer, no more.
    expect(delivery.attempts[1]!.responseExcerpt).toBe(`{"received":true,"padding":"${'x'.repeat(600)}"}`.slice(0, 512));
    for (const a of delivery.attempts) expect(a.durationMs).toBe(Date.parse(a.finishedAt!) - Date.parse(a.startedAt));
  });

  it('shows a connection error as the attempt\'s answer, and v1 subscriptions too', { timeout: testBudget }, async () => {
    const closed = await startReceiver();
    const url = `${closed.url}/gone`;
    await closed.close();
    const v2 = await subscribe(server, url, 'kycUpdated');
    const v1 = await subscribeV1(server, 'https://127.0.0.1:9/v1', 'kyc_updated');
    const customerId = await createCustomer(server);
    await approve(server, customerId);
    for (const { id, secret } of [v2, v1]) {
      const delivery = await eventually(async () => {
        const page = expectStatus(await sandboxDeliveries(server.api, id), 200);
        return page.items.find((d) => d.attempts.length > 0 && d.attempts[0]!.finishedAt && d.body.includes(customerId));
      });
      expect(delivery.attempts[0]).toMatchObject({ statusCode: null, responseExcerpt: null });
      expect(delivery.attempts[0]!.error).toMatch(/^connection error/);
      expect(delivery.signature).toBe(signatureOf(delivery.body, secret));
      // The deliveries of that one event, v1 or v2.
      const ofEvent = expectStatus(await sandboxDeliveries(server.api, id, { eventId: delivery.eventId }), 200);
      expect(ofEvent.items.map((d) => d.id)).toEqual([delivery.id]);
      expect(expectStatus(await sandboxDeliveries(server.api, id, { eventId: crypto.randomUUID() }), 200).items).toEqual([]);
    }
  });

  it("answers 404 for a subscription that is not the key's", async () => {
    expectProblem(await sandboxDeliveries(server.api, crypto.randomUUID()), 404, 'not-found');
    const child = await keyedBusinessChild(server);
    const subscribed = await subscribe(server, `${receiver.url}/other`, 'kybUpdated');
    expectProblem(await sandboxDeliveries(server.as(child.key), subscribed.id), 404, 'not-found');
  });

  it('serves the console page with a strict CSP, and its files cached for a year', async () => {
    const anyone = server.as(null);
    const answer = await anyone.GET('/sandbox/console', { parseAs: 'text' });
    const page = expectStatus(answer, 200);
    expect(answer.response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.response.headers.get('cache-control')).toBe('no-store');
    const csp = answer.response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page).not.toMatch(/<script>|<style>| style=/);
    const files = [...page.matchAll(/(?:src|href)="\/sandbox\/console\/([^"]+)"/g)].map((m) => m[1]!);
    expect(files).toHaveLength(2);
    const asset = (name: string) => anyone.GET('/sandbox/console/{asset}', { params: { path: { asset: name } }, parseAs: 'text' });
    for (const file of files) {
      const { response } = await asset(file);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-type')).toMatch(file.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
    }
    // Only the files the build's manifest names: not the manifest, nothing outside the folder.
    for (const name of ['console-NOSUCH00.js', 'manifest.json']) expectProblem(await asset(name), 404, 'not-found', name);
    // Escaped slashes climbing out of the folder: sent byte for byte as written.
    for (const name of ['..%2Fmanifest.json', '..%2F..%2Fpackage.json']) expectProblem(await server.sendRaw('GET', `/sandbox/console/${name}`, { key: null }), 404, 'not-found', name);
    // A dot segment in any spelling names no file either; only a raw client sends one (fetch
    // would turn `/sandbox/console/%2E` into the page's own path).
    for (const name of ['.', '..', '%2E', '%2e%2E', '.%2E']) {
      expectProblem(await server.sendRaw('GET', `/sandbox/console/${name}`, { key: null, verbatimPath: true }), 404, 'not-found', name);
    }
  });
});

describe('sandbox console operations in production', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_ENV: 'production' } });
  });
  afterAll(async () => server?.close());

  it('answer 403 forbidden, like every simulator', async () => {
    for (const key of [server.key, null]) {
      // The key is sent as written, even to the page and its files, which take none.
      const api = server.as(key);
      const headers = key === null ? {} : { Authorization: key };
      const answers = {
        '/sandbox/console': await api.GET('/sandbox/console', { headers, parseAs: 'text' }),
        '/sandbox/console/console-AAAAAAAA.js': await api.GET('/sandbox/console/{asset}', { params: { path: { asset: 'console-AAAAAAAA.js' } }, headers, parseAs: 'text' }),
        '/sandbox/events': await api.GET('/sandbox/events', { headers }),
        '/sandbox/webhook_subscription/{id}/deliveries': await api.GET('/sandbox/webhook_subscription/{id}/deliveries', { params: { path: { id: crypto.randomUUID() } }, headers }),
      };
      for (const [path, answer] of Object.entries(answers)) expectProblem(answer, 403, 'forbidden', `${path} ${key === null ? 'without' : 'with'} a key`);
    }
  });
});
