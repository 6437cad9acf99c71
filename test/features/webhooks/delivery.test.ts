/**
 * Deliveries to a real receiver on loopback: signatures checked apart from the server's code,
 * real payloads validated against the contract's `webhooks:` schemas, the retry rules status
 * by status with attempt counts and spacing, deletion, the deliveries endpoint, the sandbox
 * re-send, interrupted attempts, and production's refusal of private addresses.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.ts';
import {
  customerOf, deliveriesOf, emitV1, emitV2, eventBody, eventIdOf, eventually, referenceJcs, selfSignedCertificate, startReceiver, storedDeliveries, subscribe, subscribeV1, v1Events, v2Events, webhookValidator, type Reaction, type Receiver, type Received,
} from '../../support/webhooks.ts';
import { waitBudget } from '../../support/wait.ts';
import { otherPartner } from '../../support/fixtures.ts';
import { expectStatus, type Api } from '../../support/api.ts';
import { expectProblem } from '../../support/errors.ts';

const delayMs = 300;
/**
 * An attempt may take as long as any wait of a test (timeouts have their own server below): on
 * a busy machine a TLS handshake with the receiver in this process took over 10 s, and the
 * retry made a second attempt where the test counts one.
 */
const timeoutMs = waitBudget;

/** `/status/503` answers 503; `/seq/500,200` answers 500 then 200 (the last repeats); `/hang` never answers. */
function react(path: string, count: number): Reaction {
  const [, kind, arg] = path.split('?')[0]!.split('/');
  if (kind === 'status') return Number(arg);
  if (kind === 'seq') {
    const steps = arg!.split(',').map(Number);
    return steps[Math.min(count, steps.length) - 1]!;
  }
  if (kind === 'hang') return 'hang';
  return 200;
}

/** What every delivery must carry: JSON, a valid X-Signature over the canonical body, computed with node crypto. */
function expectSigned(request: Received, secret: string) {
  expect(request.headers['content-type']).toBe('application/json');
  const signature = request.headers['x-signature'];
  expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
  const key = Buffer.from(secret.slice(0, 43), 'base64url');
  expect(key).toHaveLength(32);
  // The body is sent in its canonical form: the reference JCS of the parsed body gives the same bytes.
  expect(request.raw.toString('utf8')).toBe(referenceJcs(request.body));
  expect(`sha256=${createHmac('sha256', key).update(request.raw).digest('hex')}`).toBe(signature);
}

const settled = (server: TestServer, subscriptionId: string, expected = 1) =>
  eventually(async () => {
    const deliveries = await deliveriesOf(server, subscriptionId);
    return deliveries.length >= expected && deliveries.every((d) => d.status !== 'pending') ? deliveries : undefined;
  }, waitBudget, `deliveries of ${subscriptionId} to settle`);

const ms = (iso: string) => new Date(iso).getTime();

/** `resendWebhookEvent`: the stored event sent again to every current subscription. */
const resend = (api: Api, eventId: string) => api.POST('/sandbox/webhook_event/{eventId}/resend', { params: { path: { eventId } } });

describe('webhook delivery', () => {
  let server: TestServer;
  let receiver: Receiver;
  let tlsReceiver: Receiver;

  beforeAll(async () => {
    // Compiled before any delivery waits on this process's event loop.
    webhookValidator();
    const tls = selfSignedCertificate();
    receiver = await startReceiver(react);
    tlsReceiver = await startReceiver(react, tls);
    server = await startTestServer({
      env: { RAMP_WEBHOOK_RETRY_DELAY_MS: String(delayMs), RAMP_WEBHOOK_TIMEOUT_MS: String(timeoutMs), RAMP_WEBHOOK_CA_FILE: tls.certFile },
    });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
    await tlsReceiver.close();
  });

  it('delivers every v2 event signed, once, with a body that matches its webhook schema', async () => {
    const subscriptions = Object.fromEntries(await Promise.all(v2Events.map(async (type) => [type, await subscribe(server, `${receiver.url}/ok/v2/${type}`, type)] as const)));
    const ids: Record<string, string> = {};
    for (const type of v2Events) ids[type] = await emitV2(server, type);
    for (const type of v2Events) {
      const [request] = await eventually(() => receiver.to(`/ok/v2/${type}`).length === 1 && receiver.to(`/ok/v2/${type}`), waitBudget, type);
      expectSigned(request!, subscriptions[type]!.secret);
      const body = eventBody(request!, type);
      expect(body).toMatchObject({ event: type, eventId: ids[type] });
      if (!('order' in body)) expect(body.organizationId).toBe(server.partnerId);
      const delivery = (await settled(server, subscriptions[type]!.id))[0]!;
      expect(delivery).toMatchObject({ eventId: ids[type], eventType: type, status: 'delivered', nextAttemptAt: null });
      expect(delivery.attempts).toEqual([{ number: 1, startedAt: expect.any(String), finishedAt: expect.any(String), statusCode: 200, error: null }]);
    }
  });

  it('delivers every v1 event over https as a single-key body that matches its schema, and only to v1 subscriptions', async () => {
    const subscriptions = Object.fromEntries(
      await Promise.all(v1Events.map(async (type) => [type, await subscribeV1(server, `${tlsReceiver.url}/ok/v1/${type}`, type)] as const)),
    );
    const v2 = await subscribe(server, `${tlsReceiver.url}/ok/v2-beside-v1`, 'orderUpdated');
    for (const type of v1Events) await emitV1(server, type);
    for (const type of v1Events) {
      const [request] = await eventually(() => tlsReceiver.to(`/ok/v1/${type}`).length === 1 && tlsReceiver.to(`/ok/v1/${type}`), waitBudget, type);
      expectSigned(request!, subscriptions[type]!.secret);
      expect(Object.keys(eventBody(request!, type))).toEqual([type]);
      const [delivery] = await eventually(async () => {
        const deliveries = await storedDeliveries(server, subscriptions[type]!.id);
        return deliveries[0]?.status === 'delivered' && deliveries;
      });
      expect(delivery!.attempts).toHaveLength(1);
    }
    // The v2 subscription to the same receiver saw none of them, and the v1 ones no v2 event.
    await emitV2(server, 'orderUpdated');
    await eventually(() => tlsReceiver.to('/ok/v2-beside-v1').length === 1);
    await server.jobs.tick();
    expect(tlsReceiver.to('/ok/v1/order_updated')).toHaveLength(1);
    expect((await deliveriesOf(server, v2.id))).toHaveLength(1);
  });

  it('covers the partner and every customer organization with one subscription, for its event type only', async () => {
    const subscription = await subscribe(server, `${receiver.url}/ok/cover`, 'kycUpdated');
    const customer = await customerOf(server);
    const own = await emitV2(server, 'kycUpdated');
    const theirs = await emitV2(server, 'kycUpdated', { organizationId: customer });
    await emitV2(server, 'kybUpdated', { organizationId: customer });
    const stranger = await otherPartner(server);
    await emitV2(server, 'kycUpdated', { partnerId: stranger.partnerId });
    const deliveries = await settled(server, subscription.id, 2);
    expect(deliveries.map((d) => d.eventId).sort()).toEqual([own, theirs].sort());
    const bodies = receiver.events('/ok/cover', 'kycUpdated');
    expect(bodies.map((b) => [b.eventId, b.organizationId]).sort()).toEqual([[own, server.partnerId], [theirs, customer]].sort());
    expect(bodies.every((b) => b.event === 'kycUpdated')).toBe(true);
  });

  describe('v2 retry rules', () => {
    const cases: { path: string; attempts: number; status: 'delivered' | 'abandoned' }[] = [
      ...[200, 201, 202, 204].map((code) => ({ path: `/status/${code}`, attempts: 1, status: 'delivered' as const })),
      ...[400, 401, 403, 404, 405, 410, 422].map((code) => ({ path: `/status/${code}`, attempts: 1, status: 'abandoned' as const })),
      ...[408, 429, 500, 502, 503, 504, 409, 418, 302].map((code) => ({ path: `/status/${code}`, attempts: 3, status: 'abandoned' as const })),
      { path: '/seq/500,200', attempts: 2, status: 'delivered' },
      { path: '/seq/503,429,204', attempts: 3, status: 'delivered' },
      { path: '/seq/500,410', attempts: 2, status: 'abandoned' },
    ];
    const subscriptionIds = new Map<string, string>();
    let refusedUrl: string;
    let refusedId: string;
    let eventId: string;

    beforeAll(async () => {
      for (const c of cases) subscriptionIds.set(c.path, (await subscribe(server, `${receiver.url}${c.path}`, 'paymentAccountUpdated')).id);
      // A port nothing listens on: every attempt is a connection error.
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/refused`;
      await new Promise((resolve) => closed.close(resolve));
      refusedId = (await subscribe(server, refusedUrl, 'paymentAccountUpdated')).id;
      eventId = await emitV2(server, 'paymentAccountUpdated');
      for (const id of [...subscriptionIds.values(), refusedId]) await settled(server, id);
    });

    for (const c of cases) {
      it(`${c.path}: ${c.attempts} attempt(s), ${c.status}, same eventId and bytes each time, ${delayMs} ms apart at least`, async () => {
        const delivery = (await deliveriesOf(server, subscriptionIds.get(c.path)!))[0]!;
        expect(delivery.status).toBe(c.status);
        expect(delivery.attempts.map((a) => a.number)).toEqual([1, 2, 3].slice(0, c.attempts));
        const requests = receiver.to(c.path);
        expect(requests).toHaveLength(c.attempts);
        for (const request of requests) {
          expect(eventIdOf(request)).toBe(eventId);
          expect(request.raw.equals(requests[0]!.raw)).toBe(true);
          expect(request.headers['x-signature']).toBe(requests[0]!.headers['x-signature']);
        }
        const attempts = delivery.attempts;
        for (let i = 1; i < attempts.length; i++) {
          expect(ms(attempts[i]!.startedAt) - ms(attempts[i - 1]!.finishedAt!)).toBeGreaterThanOrEqual(delayMs);
          expect(requests[i]!.at - requests[i - 1]!.at).toBeGreaterThanOrEqual(delayMs);
        }
        const code = (n: number) => Number(c.path.startsWith('/seq/') ? c.path.slice(5).split(',')[n] : c.path.slice(8));
        expect(attempts.map((a) => a.statusCode)).toEqual(attempts.map((_, n) => code(n)));
        expect(attempts.every((a) => a.error === null)).toBe(true);
      });
    }

    it('a connection error: 3 attempts, each recorded with its error', async () => {
      const delivery = (await deliveriesOf(server, refusedId))[0]!;
      expect(delivery.status).toBe('abandoned');
      expect(delivery.attempts).toHaveLength(3);
      for (const attempt of delivery.attempts) {
        expect(attempt.statusCode).toBeNull();
        expect(attempt.error).toMatch(/^connection error: .*ECONNREFUSED/);
      }
    });

    it('never sends an abandoned delivery later', async () => {
      const before = receiver.received.length;
      await new Promise((resolve) => setTimeout(resolve, 3 * delayMs));
      await server.jobs.tick();
      expect(receiver.received.length).toBe(before);
      for (const c of cases) expect(receiver.to(c.path)).toHaveLength(c.attempts);
    });
  });

  it('v1: any non-2xx is retried, 400 and 410 included, for 3 attempts in all', async () => {
    const paths = ['/status/400', '/status/410', '/status/500', '/seq/422,200', '/status/200'];
    const subscriptions = await Promise.all(paths.map((p) => subscribeV1(server, `${tlsReceiver.url}${p}?v1`, 'swap_updated')));
    await emitV1(server, 'swap_updated');
    const expected = [3, 3, 3, 2, 1];
    for (const [i, subscription] of subscriptions.entries()) {
      const [delivery] = await eventually(async () => {
        const deliveries = await storedDeliveries(server, subscription.id);
        return deliveries[0] && deliveries[0].status !== 'pending' && deliveries;
      }, waitBudget, paths[i]);
      expect(delivery!.attempts, paths[i]).toHaveLength(expected[i]!);
      expect(delivery!.status).toBe(i === 3 || i === 4 ? 'delivered' : 'abandoned');
      for (let n = 1; n < delivery!.attempts.length; n++) {
        expect(ms(delivery!.attempts[n]!.startedAt) - ms(delivery!.attempts[n - 1]!.finishedAt!)).toBeGreaterThanOrEqual(delayMs);
      }
      expect(tlsReceiver.to(`${paths[i]}?v1`)).toHaveLength(expected[i]!);
    }
  });

  it('lists a subscription\'s deliveries newest first, paged', async () => {
    const subscription = await subscribe(server, `${receiver.url}/ok/paged`, 'kybUpdated');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await emitV2(server, 'kybUpdated'));
      // Newest first is by creation time, to the millisecond.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await settled(server, subscription.id, 3);
    const page = (id: string, query: { pageSize?: number; pageNumber?: number }) =>
      server.api.GET('/webhook_subscription/{id}/deliveries', { params: { path: { id }, query } });
    const first = expectStatus(await page(subscription.id, { pageSize: 2 }), 200);
    expect(first).toMatchObject({ totalItems: 3, pageSize: 2, pageNumber: 0, totalPages: 2 });
    const second = expectStatus(await page(subscription.id, { pageSize: 2, pageNumber: 1 }), 200);
    const listed = [...first.items, ...second.items];
    expect(listed.map((d) => d.eventId)).toEqual([...ids].reverse());
    expect(listed.every((d) => d.subscriptionId === subscription.id && d.eventType === 'kybUpdated')).toBe(true);
    expectProblem(await page(crypto.randomUUID(), {}), 404, 'not-found');
    // Past the contract's 100 (PageSize): what no typed client sends.
    expectProblem(await server.sendRaw('GET', `/webhook_subscription/${subscription.id}/deliveries?pageSize=101`), 400, 'invalid-request');
  });

  it('re-sends a stored event in the sandbox: same bytes and eventId, to every current subscription', async () => {
    const early = await subscribe(server, `${receiver.url}/ok/resend-early`, 'orderUpdated');
    const eventId = await emitV2(server, 'orderUpdated');
    await settled(server, early.id);
    const late = await subscribe(server, `${receiver.url}/ok/resend-late`, 'orderUpdated');
    const resent = expectStatus(await resend(server.api, eventId), 202);
    expect(resent.eventId).toBe(eventId);
    expect(resent.eventType).toBe('orderUpdated');
    const targets = resent.deliveries.map((d) => d.subscriptionId);
    expect(targets).toEqual(expect.arrayContaining([early.id, late.id]));
    expect(resent.deliveries.every((d) => d.status === 'pending' && d.attempts.length === 0 && d.eventId === eventId)).toBe(true);
    // Every delivery of the event had settled: each listed is new.
    expect([...resent.newDeliveryIds].sort()).toEqual(resent.deliveries.map((d) => d.id).sort());
    await eventually(() => receiver.to('/ok/resend-early').length === 2 && receiver.to('/ok/resend-late').length === 1);
    const [original, again] = receiver.to('/ok/resend-early');
    expect(again!.raw.equals(original!.raw)).toBe(true);
    expect(again!.headers['x-signature']).toBe(original!.headers['x-signature']);
    const [late1] = receiver.to('/ok/resend-late');
    expectSigned(late1!, late.secret);
    expect(eventIdOf(late1!)).toBe(eventId);
    expect(await deliveriesOf(server, early.id)).toHaveLength(2);
  });

  it('re-sends only the partner\'s own v2 events', async () => {
    const v1Event = await emitV1(server, 'order_updated');
    const stranger = await otherPartner(server);
    const theirs = await emitV2(server, 'orderUpdated', { partnerId: stranger.partnerId });
    for (const id of [v1Event, theirs, crypto.randomUUID()]) {
      expectProblem(await resend(server.api, id), 404, 'not-found', id);
    }
    // An eventId that is no UUID: what no typed client sends.
    expectProblem(await server.sendRaw('POST', '/sandbox/webhook_event/nope/resend'), 400, 'invalid-request');
    expectStatus(await resend(server.as(stranger.key), theirs), 202);
  });
});

describe('interrupted attempts', () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver(react);
    // Jobs run only when the test ticks them.
    server = await startTestServer({ env: { RAMP_JOB_INTERVAL_MS: '3600000', RAMP_WEBHOOK_RETRY_DELAY_MS: String(delayMs) } });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  /** A delivery whose process stopped during attempt `n`: its lease has run out. */
  async function strand(path: string, n: number) {
    const subscription = await subscribe(server, `${receiver.url}${path}`, 'orderUpdated');
    await emitV2(server, 'orderUpdated');
    const db = server.services.storage.db;
    const delivery = await db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', subscription.id).executeTakeFirstOrThrow();
    const past = new Date(Date.now() - 60_000).toISOString();
    for (let i = 1; i <= n; i++) {
      await db.insertInto('webhook_attempts').values({
        id: crypto.randomUUID(), delivery_id: delivery.id, number: i, started_at: past,
        finished_at: i < n ? past : null, status_code: i < n ? 500 : null, error: null,
      }).execute();
    }
    await db.updateTable('webhook_deliveries').set({ attempts: n, next_attempt_at: past }).where('id', '=', delivery.id).execute();
    return subscription;
  }

  it('stops the retries of a deleted subscription', async () => {
    const subscription = await subscribe(server, `${receiver.url}/status/500?deleted`, 'orderUpdated');
    await emitV2(server, 'orderUpdated');
    await server.jobs.tick();
    const delivery = (await deliveriesOf(server, subscription.id))[0]!;
    expect(delivery).toMatchObject({ status: 'pending', attempts: [{ number: 1, statusCode: 500 }] });
    expectStatus(await server.api.DELETE('/webhook_subscription/{id}', { params: { path: { id: subscription.id } } }), 204);
    await new Promise((resolve) => setTimeout(resolve, 2 * delayMs));
    await server.jobs.tick();
    expect(receiver.to('/status/500?deleted')).toHaveLength(1);
    const [{ n }] = (await server.services.storage.db.selectFrom('webhook_deliveries').where('subscription_id', '=', subscription.id).select((eb) => eb.fn.countAll<number>().as('n')).execute()) as [{ n: number }];
    expect(Number(n)).toBe(0);
  });

  it('shows an attempt under way without a due time', async () => {
    const subscription = await subscribe(server, `${receiver.url}/ok/under-way`, 'orderUpdated');
    await emitV2(server, 'orderUpdated');
    const db = server.services.storage.db;
    const delivery = await db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', subscription.id).executeTakeFirstOrThrow();
    await db.insertInto('webhook_attempts').values({ id: crypto.randomUUID(), delivery_id: delivery.id, number: 1, started_at: new Date().toISOString(), finished_at: null, status_code: null, error: null }).execute();
    await db.updateTable('webhook_deliveries').set({ attempts: 1, next_attempt_at: new Date(Date.now() + 60_000).toISOString() }).where('id', '=', delivery.id).execute();
    const shown = (await deliveriesOf(server, subscription.id))[0]!;
    expect(shown).toMatchObject({ status: 'pending', nextAttemptAt: null, attempts: [{ number: 1, finishedAt: null, statusCode: null, error: null }] });
    // Its lease has not run out: no run takes it over.
    await server.jobs.tick();
    expect(receiver.to('/ok/under-way')).toHaveLength(0);
  });

  it('makes the next attempt after an interrupted one, and records the interruption', async () => {
    const subscription = await strand('/ok/interrupted-1', 1);
    await server.jobs.tick();
    expect(receiver.to('/ok/interrupted-1')).toHaveLength(1);
    const delivery = (await deliveriesOf(server, subscription.id))[0]!;
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts[0]).toMatchObject({ number: 1, finishedAt: null, statusCode: null, error: expect.stringMatching(/^interrupted/) });
    expect(delivery.attempts[1]).toMatchObject({ number: 2, statusCode: 200, error: null });
  });

  it('never makes a fourth attempt: an interrupted third one abandons the delivery', async () => {
    const subscription = await strand('/ok/interrupted-3', 3);
    await server.jobs.tick();
    await server.jobs.tick();
    expect(receiver.to('/ok/interrupted-3')).toHaveLength(0);
    const delivery = (await deliveriesOf(server, subscription.id))[0]!;
    expect(delivery.status).toBe('abandoned');
    expect(delivery.attempts).toHaveLength(3);
    expect(delivery.attempts[2]!.error).toMatch(/^interrupted/);
  });

  it('sends each attempt once when runs overlap', async () => {
    // 503 to the first request of each event at each path, 200 to the next.
    const overlap = await startReceiver((path, _count, request) =>
      overlap.received.filter((r) => r.path === path && eventIdOf(r) === eventIdOf(request)).length === 1 ? 503 : 200,
    );
    const subscriptions = await Promise.all([0, 1, 2, 3, 4].map((i) => subscribe(server, `${overlap.url}/overlap/${i}`, 'kycUpdated')));
    const events: string[] = [];
    for (let i = 0; i < 8; i++) events.push(await emitV2(server, 'kycUpdated'));
    const done = async () => (await Promise.all(subscriptions.map((s) => deliveriesOf(server, s.id)))).flat().every((d) => d.status === 'delivered');
    await eventually(async () => {
      await Promise.all([server.jobs.tick(), server.jobs.tick(), server.jobs.tick()]);
      return done();
    }, 20_000);
    for (const [i, subscription] of subscriptions.entries()) {
      const requests = overlap.to(`/overlap/${i}`);
      expect(requests).toHaveLength(2 * events.length);
      for (const id of events) expect(requests.filter((r) => eventIdOf(r) === id)).toHaveLength(2);
      for (const delivery of await deliveriesOf(server, subscription.id)) expect(delivery.attempts.map((a) => a.statusCode)).toEqual([503, 200]);
    }
    await overlap.close();
  });
});

describe('a receiver that never answers', () => {
  it('times out each attempt: 3 attempts, then abandoned', async () => {
    const receiver = await startReceiver(react);
    const server = await startTestServer({ env: { RAMP_WEBHOOK_TIMEOUT_MS: '300', RAMP_WEBHOOK_RETRY_DELAY_MS: '100' } });
    try {
      const subscription = await subscribe(server, `${receiver.url}/hang`, 'kybUpdated');
      const eventId = await emitV2(server, 'kybUpdated');
      const delivery = (await settled(server, subscription.id))[0]!;
      expect(delivery.status).toBe('abandoned');
      expect(delivery.attempts).toHaveLength(3);
      for (const attempt of delivery.attempts) expect(attempt).toMatchObject({ statusCode: null, error: 'timeout after 300 ms' });
      for (let n = 1; n < 3; n++) expect(ms(delivery.attempts[n]!.startedAt) - ms(delivery.attempts[n - 1]!.finishedAt!)).toBeGreaterThanOrEqual(100);
      expect(receiver.events('/hang', 'kybUpdated').map((body) => body.eventId)).toEqual([eventId, eventId, eventId]);
    } finally {
      await server.close();
      await receiver.close();
    }
  });
});

describe('production deliveries', () => {
  it('never connect to a private address, even one a subscription row names', async () => {
    const receiver = await startReceiver(react);
    const server = await startTestServer({ env: { RAMP_ENV: 'production', RAMP_WEBHOOK_RETRY_DELAY_MS: '50' } });
    try {
      // The API refuses such URLs; a row written behind its back must still not be reached.
      const now = new Date().toISOString();
      const id = crypto.randomUUID();
      await server.services.storage.db.insertInto('webhook_subscriptions').values({
        id, surface: 'v2', organization_id: server.partnerId, event_type: 'orderUpdated', url: `${receiver.url.replace('http:', 'https:')}/ok/private`,
        secret: `${Buffer.alloc(32, 1).toString('base64url')}=`, created_at: now, updated_at: now,
      }).execute();
      await emitV2(server, 'orderUpdated');
      const delivery = (await settled(server, id))[0]!;
      expect(delivery.status).toBe('abandoned');
      expect(delivery.attempts).toHaveLength(3);
      for (const attempt of delivery.attempts) expect(attempt.error).toMatch(/^address not allowed/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await server.close();
      await receiver.close();
    }
  });
});
