/**
 * The sandbox operations the console is built on, over HTTP: the event feed and timelines
 * (listSandboxEvents), deliveries with their bodies, signatures and answers
 * (listSandboxWebhookDeliveries), the console's page and files, and all four in production.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/errors.ts';
import { approve, solanaAddress } from '../support/money.ts';
import { createChild, keyedBusinessChild } from '../support/organizations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { eventually, testBudget } from '../support/wait.ts';
import { referenceJcs, startReceiver, type Receiver } from '../webhooks/support.ts';

/** `X-Signature` computed apart from the server: HMAC-SHA256 of the body, keyed with the base64url-decoded secret. */
const signatureOf = (body: string, secret: string) => `sha256=${createHmac('sha256', Buffer.from(secret, 'base64url')).update(body, 'utf8').digest('hex')}`;

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
    const customer = await createChild(server);
    await approve(server, customer.id);
    const quote = await server.call('POST', `/organization/${customer.id}/quote`, {
      body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: solanaAddress() },
    });
    expect(quote.status, quote.text_).toBe(201);
    const order = await server.call('POST', `/organization/${customer.id}/order`, { body: { quoteId: quote.json_.quoteId } });
    expect(order.status, order.text_).toBe(201);
    return { customerId: customer.id, orderId: order.json_.id as string };
  }

  it('reads every event after a cursor, oldest first, with dense cursors, and an order timeline by subjectId', { timeout: testBudget }, async () => {
    const before = (await server.call('GET', '/sandbox/events')).json_;
    const { customerId, orderId } = await onramp();
    const deposit = await server.call('POST', `/sandbox/organization/${customerId}/order/${orderId}/deposit`, { body: {} });
    expect(deposit.status, deposit.text_).toBe(200);
    // The order completes on its own: the feed shows it without being asked about the order.
    const events = await eventually(async () => {
      const page = (await server.call('GET', `/sandbox/events?after=${before.nextCursor}`)).json_;
      return page.items.some((e: any) => e.eventType === 'orderUpdated' && e.body.order.status === 'completed') && page;
    });
    const cursors = events.items.map((e: any) => e.cursor);
    expect(cursors).toEqual(cursors.map((_: number, i: number) => before.nextCursor + 1 + i));
    expect(events.nextCursor).toBe(cursors.at(-1));
    expect(events.items.map((e: any) => `${e.surface} ${e.eventType}`)).toContain('v2 kycUpdated');
    expect(events.items.map((e: any) => `${e.surface} ${e.eventType}`)).toContain('v1 kyc_updated');

    const timeline = (await server.call('GET', `/sandbox/events?subjectId=${orderId}`)).json_;
    // Creation sends no event (createOrder): every status change after it does.
    expect(timeline.items.map((e: any) => e.body.order.status)).toEqual(['funded', 'completed']);
    for (const e of timeline.items) expect(e).toMatchObject({ surface: 'v2', eventType: 'orderUpdated', organizationId: customerId, subjectId: orderId, occurredAt: e.body.occurredAt, eventId: e.body.eventId });

    // Paging: one at a time from the start reaches the same events.
    const first = (await server.call('GET', `/sandbox/events?after=${before.nextCursor}&pageSize=1`)).json_;
    expect(first.items.map((e: any) => e.cursor)).toEqual([before.nextCursor + 1]);
    const nothing = (await server.call('GET', `/sandbox/events?after=${events.nextCursor + 1000}`)).json_;
    expect(nothing).toEqual({ items: [], nextCursor: events.nextCursor + 1000 });
  });

  it("shows a key only its own organization's events: a customer's key sees its own, not its siblings'", async () => {
    const { customerId } = await onramp();
    const child = await keyedBusinessChild(server);
    const mine = (await server.call('GET', '/sandbox/events?pageSize=100', { key: child.key })).json_;
    expect(mine.items.every((e: any) => e.organizationId === child.id)).toBe(true);
    const sibling = (await server.call('GET', `/sandbox/events?subjectId=${customerId}`, { key: child.key })).json_;
    expect(sibling.items).toEqual([]);
  });

  it('refuses a bad cursor or subject with invalid-request', async () => {
    expectProblem(await server.call('GET', '/sandbox/events?after=-1'), 400, 'invalid-request');
    expectProblem(await server.call('GET', '/sandbox/events?after=abc'), 400, 'invalid-request');
    expectProblem(await server.call('GET', '/sandbox/events?subjectId=not-a-uuid'), 400, 'invalid-request');
  });

  it('shows each delivery with its URL, exact body, a signature that verifies, and every attempt with its answer', { timeout: testBudget }, async () => {
    const subscribed = await server.call('POST', '/webhook_subscription', { body: { url: `${receiver.url}/flaky`, eventType: 'orderUpdated' } });
    expect(subscribed.status, subscribed.text_).toBe(201);
    const { id, secret } = subscribed.json_;
    const { customerId, orderId } = await onramp();
    const deposit = await server.call('POST', `/sandbox/organization/${customerId}/order/${orderId}/deposit`, { body: { autoComplete: false } });
    expect(deposit.status, deposit.text_).toBe(200);
    const delivery = await eventually(async () => {
      const page = (await server.call('GET', `/sandbox/webhook_subscription/${id}/deliveries`)).json_;
      const found = page.items.find((d: any) => JSON.parse(d.body).order.id === orderId);
      return found?.status === 'delivered' && found;
    }).catch(async (error) => {
      throw new Error(`${error}: ${(await server.call('GET', `/sandbox/webhook_subscription/${id}/deliveries`)).text_.slice(0, 3000)}`);
    });
    expect(delivery).toMatchObject({ subscriptionId: id, surface: 'v2', eventType: 'orderUpdated', url: `${receiver.url}/flaky`, nextAttemptAt: null });
    // The body is the very bytes the receiver got, canonical, and the signature is theirs.
    const got = receiver.to('/flaky').filter((r) => r.body.eventId === delivery.eventId);
    expect(got.map((r) => r.raw.toString('utf8'))).toEqual([delivery.body, delivery.body]);
    expect(delivery.body).toBe(referenceJcs(JSON.parse(delivery.body)));
    expect(delivery.signature).toBe(signatureOf(delivery.body, secret));
    expect(got.map((r) => r.headers['x-signature'])).toEqual([delivery.signature, delivery.signature]);
    expect(delivery.attempts).toHaveLength(2);
    expect(delivery.attempts[0]).toMatchObject({ number: 1, statusCode: 503, error: null, responseExcerpt: 'try later' });
    expect(delivery.attempts[1]).toMatchObject({ number: 2, statusCode: 200, error: null });
    // The first 512 bytes of the answer, no more.
    expect(delivery.attempts[1].responseExcerpt).toBe(`{"received":true,"padding":"${'x'.repeat(600)}"}`.slice(0, 512));
    for (const a of delivery.attempts) expect(a.durationMs).toBe(Date.parse(a.finishedAt) - Date.parse(a.startedAt));
  });

  it('shows a connection error as the attempt\'s answer, and v1 subscriptions too', { timeout: testBudget }, async () => {
    const closed = await startReceiver();
    const url = `${closed.url}/gone`;
    await closed.close();
    const subscribed = await server.call('POST', '/webhook_subscription', { body: { url, eventType: 'kycUpdated' } });
    const v1 = await server.call('POST', '/ramp/webhook', { body: { url: 'https://127.0.0.1:9/v1', eventType: 'kyc_updated' } });
    expect(v1.status, v1.text_).toBe(201);
    const customer = await createChild(server);
    await approve(server, customer.id);
    for (const [subscription, secret] of [[subscribed.json_.id, subscribed.json_.secret], [v1.json_.id, v1.json_.secret]]) {
      const delivery = await eventually(async () => {
        const page = (await server.call('GET', `/sandbox/webhook_subscription/${subscription}/deliveries`)).json_;
        return page.items.find((d: any) => d.attempts.length > 0 && d.attempts[0].finishedAt && d.body.includes(customer.id));
      });
      expect(delivery.attempts[0]).toMatchObject({ statusCode: null, responseExcerpt: null });
      expect(delivery.attempts[0].error).toMatch(/^connection error/);
      expect(delivery.signature).toBe(signatureOf(delivery.body, secret));
    }
  });

  it("answers 404 for a subscription that is not the key's", async () => {
    expectProblem(await server.call('GET', `/sandbox/webhook_subscription/${crypto.randomUUID()}/deliveries`), 404, 'not-found');
    const child = await keyedBusinessChild(server);
    const subscribed = await server.call('POST', '/webhook_subscription', { body: { url: `${receiver.url}/other`, eventType: 'kybUpdated' } });
    expectProblem(await server.call('GET', `/sandbox/webhook_subscription/${subscribed.json_.id}/deliveries`, { key: child.key }), 404, 'not-found');
  });

  it('serves the console page with a strict CSP, and its files cached for a year', async () => {
    const page = await server.call('GET', '/sandbox/console', { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.text_).not.toMatch(/<script>|<style>| style=/);
    const files = [...page.text_.matchAll(/(?:src|href)="\/sandbox\/console\/([^"]+)"/g)].map((m) => m[1]!);
    expect(files).toHaveLength(2);
    for (const file of files) {
      const asset = await server.call('GET', `/sandbox/console/${file}`, { key: null });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('content-type')).toMatch(file.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
    }
    expectProblem(await server.call('GET', '/sandbox/console/console-NOSUCH00.js', { key: null }), 404, 'not-found');
    // Only the files the build's manifest names: not the manifest, nothing outside the folder.
    for (const name of ['manifest.json', '..%2Fmanifest.json', '..%2F..%2Fpackage.json']) expectProblem(await server.call('GET', `/sandbox/console/${name}`, { key: null }), 404, 'not-found', name);
  });
});

describe('sandbox console operations in production', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_ENV: 'production' } });
  });
  afterAll(async () => server?.close());

  it('answer 403 forbidden, like every simulator', async () => {
    for (const path of ['/sandbox/console', '/sandbox/console/console-AAAAAAAA.js', '/sandbox/events', `/sandbox/webhook_subscription/${crypto.randomUUID()}/deliveries`]) {
      expectProblem(await server.call('GET', path), 403, 'forbidden', path);
      expectProblem(await server.call('GET', path, { key: null }), 403, 'forbidden', path);
    }
  });
});
