/**
 * No partner's receiver can hurt another partner's deliveries: whatever a receiver answers is
 * stored (what cannot be stored is replaced, the same on both engines), and an attempt the
 * database refuses loses only itself, never the attempts of other partners recorded in the
 * same batch. And no partner can multiply what is sent: subscriptions are limited per
 * organization and event type, and a re-send adds no delivery to one still pending.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../../client/index.ts';
import { recorder } from '../../../server/features/webhooks/delivery.ts';
import { deliveriesRepository, type ClaimedAttempt } from '../../../server/features/webhooks/deliveriesRepository.ts';
import { subscriptionLimits } from '../../../server/features/webhooks/subscriptions.ts';
import { storableText } from '../../../server/shared/storableText.ts';
import { inTransaction } from '../../../server/storage/positions.ts';
import { expectStatus } from '../../support/api.ts';
import { expectDocumentedDetail, expectPlainError, expectProblem } from '../../support/errors.ts';
import { otherPartner } from '../../support/fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { deliveriesOf, emitV2, eventually, startReceiver, subscribe, type Receiver } from '../../support/webhooks.ts';

describe('storableText', () => {
  const cases: [string, string, string][] = [
    ['plain text', 'ok', 'ok'],
    ['a NUL', 'ok\u0000bye', 'ok\uFFFDbye'],
    ['a lone high surrogate', 'a\ud800b', 'a\uFFFDb'],
    ['a lone low surrogate at the end', 'a\udc00', 'a\uFFFD'],
    ['a surrogate pair (kept)', 'a\ud83d\ude00b', 'a😀b'],
    ['U+FFFD itself', '\uFFFD', '\uFFFD'],
  ];
  it.each(cases)('%s', (_name, text, stored) => {
    expect(storableText(text)).toBe(stored);
  });
});

/** The sandbox deliveries of a subscription as the partner reads them (listSandboxWebhookDeliveries). */
async function sandboxDeliveries(server: TestServer, key: string, id: string) {
  return expectStatus(await server.as(key).GET('/sandbox/webhook_subscription/{id}/deliveries', { params: { path: { id } } }), 200).items;
}

/** A subscription of each partner (the server's and another) to `orderUpdated`, at `paths` of `url`. */
async function twoPartners(server: TestServer, url: string, paths: [string, string]) {
  const other = await otherPartner(server);
  const keys = [server.key, other.key];
  const partners = [server.partnerId, other.partnerId];
  const subscriptions = await Promise.all(
    paths.map(async (path, i) => expectStatus(await server.as(keys[i]!).POST('/webhook_subscription', { body: { url: `${url}${path}`, eventType: 'orderUpdated' } }), 201)),
  );
  return { keys, partners, subscriptions };
}

describe('a receiver that answers what cannot be stored', () => {
  let server: TestServer;
  let receiver: http.Server;
  let url: string;
  beforeAll(async () => {
    // Both receivers answer together once both requests arrived: their attempts end in the same instant.
    const waiting: [string, http.ServerResponse][] = [];
    receiver = http.createServer((req, res) => {
      req.resume().on('end', () => {
        waiting.push([req.url ?? '', res]);
        if (waiting.length < 2) return;
        for (const [path, answer] of waiting.splice(0)) answer.writeHead(200, { 'Content-Type': 'text/plain' }).end(path === '/nul' ? 'ok\u0000bye' : 'fine');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    // Jobs run only when the test ticks them.
    server = await startTestServer({ env: { RAMP_JOB_INTERVAL_MS: '3600000' } });
  });
  afterAll(async () => {
    await server.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('records a NUL in an answer as U+FFFD, and the other partner\'s attempt of the same instant as sent', async () => {
    const { keys, partners, subscriptions } = await twoPartners(server, url, ['/nul', '/fine']);
    for (const partnerId of partners) await emitV2(server, 'orderUpdated', { partnerId });
    await server.jobs.tick();
    const [poisoned, other] = await Promise.all(subscriptions.map((s, i) => sandboxDeliveries(server, keys[i]!, s.id)));
    expect(poisoned).toEqual([expect.objectContaining({ status: 'delivered', attempts: [expect.objectContaining({ statusCode: 200, responseExcerpt: 'ok\uFFFDbye' })] })]);
    expect(other).toEqual([expect.objectContaining({ status: 'delivered', attempts: [expect.objectContaining({ statusCode: 200, responseExcerpt: 'fine' })] })]);
    expect(server.logs.join('')).not.toMatch(/not recorded/);
  });
});

describe('an attempt the database refuses', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_JOB_INTERVAL_MS: '3600000' } });
    // The database refuses one answer, as it would any row it cannot store.
    const db = server.services.storage.db;
    if (server.services.storage.engine === 'sqlite') {
      await sql`CREATE TRIGGER refuse_attempt BEFORE UPDATE ON webhook_attempts WHEN NEW.response_excerpt = 'refused' BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END`.execute(db);
    } else {
      await sql`CREATE FUNCTION refuse_attempt() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.response_excerpt = 'refused' THEN RAISE EXCEPTION 'refused by a test trigger'; END IF; RETURN NEW; END $$`.execute(db);
      await sql`CREATE TRIGGER refuse_attempt BEFORE UPDATE ON webhook_attempts FOR EACH ROW EXECUTE FUNCTION refuse_attempt()`.execute(db);
    }
  });
  afterAll(() => server.close());

  /** Claims the due attempts as the worker does, without sending them. */
  async function claim(): Promise<ClaimedAttempt[]> {
    const { storage } = server.services;
    const leaseUntil = new Date(Date.now() + 60_000).toISOString();
    return inTransaction(storage.db, (tx) => deliveriesRepository(tx).claimDue({ now: new Date().toISOString(), limit: 100, leaseUntil, engine: storage.engine, maxAttempts: 3 }));
  }

  it('loses only that attempt: the other partner\'s, recorded in the same batch, is written, with its error text made storable', async () => {
    const { partners, subscriptions } = await twoPartners(server, 'http://127.0.0.1:9', ['/refused', '/other']);
    for (const partnerId of partners) await emitV2(server, 'orderUpdated', { partnerId });
    const claimed = await claim();
    expect(claimed).toHaveLength(2);
    const bySubscription = await server.services.storage.db.selectFrom('webhook_deliveries').select(['id', 'subscription_id']).execute();
    const deliveryOf = (i: number) => bySubscription.find((d) => d.subscription_id === subscriptions[i]!.id)!.id;
    const [refused, other] = [0, 1].map((i) => claimed.find((c) => c.deliveryId === deliveryOf(i))!);
    const record = recorder(server.services);
    const finishedAt = new Date().toISOString();
    // Recorded together, as two answers that end in the same instant are.
    await Promise.all([
      record({ attemptId: refused!.attemptId, deliveryId: refused!.deliveryId, number: 1, finishedAt, statusCode: 200, error: null, responseExcerpt: 'refused', status: 'delivered' }),
      record({ attemptId: other!.attemptId, deliveryId: other!.deliveryId, number: 1, finishedAt, statusCode: null, error: 'connection error: \u0000\ud800', responseExcerpt: null, status: 'pending' }),
    ]);
    const attempts = await deliveriesRepository(server.services.storage.db).attemptsOf([refused!.deliveryId, other!.deliveryId]);
    expect(attempts.get(other!.deliveryId)).toEqual([expect.objectContaining({ finished_at: finishedAt, error: 'connection error: \uFFFD\uFFFD' })]);
    // The refused one stays unfinished: its lease runs out and the next attempt is made.
    expect(attempts.get(refused!.deliveryId)).toEqual([expect.objectContaining({ finished_at: null, error: null })]);
    expect(server.logs.join('')).toMatch(/webhook attempt not recorded/);
  });
});

describe('subscription limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const { perEventType, perOrganization } = subscriptionLimits;
  const url = (i: number | string) => `https://partner.example/hooks/${i}`;
  const subscribeAs = (key: string, i: number | string, eventType: Schema<'WebhookEventType'>) => server.as(key).POST('/webhook_subscription', { body: { url: url(i), eventType } });
  const stored = async (partnerId: string) =>
    Number((await server.services.storage.db.selectFrom('webhook_subscriptions').where('organization_id', '=', partnerId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it(`allow ${perEventType} v2 subscriptions per event type and ${perOrganization} in all: past either, 409 conflict that changes nothing`, async () => {
    const { key, partnerId } = await otherPartner(server);
    for (let i = 0; i < perEventType; i++) expectStatus(await subscribeAs(key, i, 'orderUpdated'), 201);
    const perType = expectProblem(await subscribeAs(key, 'one-more', 'orderUpdated'), 409, 'conflict');
    expect(perType.detail).toBe(`The organization already has ${perEventType} subscriptions to orderUpdated; delete one before creating another.`);
    expectDocumentedDetail(perType);
    expect(await stored(partnerId)).toBe(perEventType);
    // Other event types count toward the organization's limit.
    for (let i = perEventType; i < perOrganization; i++) expectStatus(await subscribeAs(key, i, i % 2 ? 'kycUpdated' : 'kybUpdated'), 201);
    const inAll = expectProblem(await subscribeAs(key, 'one-more', 'paymentAccountUpdated'), 409, 'conflict');
    expect(inAll.detail).toBe(`The organization already has ${perOrganization} v2 webhook subscriptions; delete one before creating another.`);
    expectDocumentedDetail(inAll);
    expect(await stored(partnerId)).toBe(perOrganization);
    // A duplicate is still named as one; deleting makes room; another partner has its own count.
    const duplicate = expectProblem(await subscribeAs(key, 0, 'orderUpdated'), 409, 'conflict');
    expect(duplicate.detail).toBe('A subscription for this url and eventType already exists.');
    expectDocumentedDetail(duplicate);
    const first = expectStatus(await server.as(key).GET('/webhook_subscriptions', { params: { query: { pageSize: 1 } } }), 200).items[0]!;
    expectStatus(await server.as(key).DELETE('/webhook_subscription/{id}', { params: { path: { id: first.id } } }), 204);
    expectStatus(await subscribeAs(key, 'after-delete', 'paymentAccountUpdated'), 201);
    expectStatus(await subscribeAs(server.key, 'elsewhere', 'orderUpdated'), 201);
  });

  it('hold under concurrent creation: exactly the limit is created', async () => {
    const { key, partnerId } = await otherPartner(server);
    const answers = await Promise.all(Array.from({ length: perEventType + 5 }, (_, i) => subscribeAs(key, `concurrent-${i}`, 'kycUpdated')));
    expect(answers.filter((a) => a.response.status === 201)).toHaveLength(perEventType);
    for (const refused of answers.filter((a) => a.response.status !== 201)) expectProblem(refused, 409, 'conflict');
    expect(await stored(partnerId)).toBe(perEventType);
  });

  it('apply to v1 subscriptions with a v1 error', async () => {
    const { key } = await otherPartner(server);
    for (let i = 0; i < perEventType; i++) expectStatus(await server.as(key).POST('/ramp/webhook', { body: { url: url(i), eventType: 'swap_updated' } }), 201);
    const refused = await server.as(key).POST('/ramp/webhook', { body: { url: url('one-more'), eventType: 'swap_updated' } });
    expect(expectPlainError(refused, 409).error).toBe(`The organization already has ${perEventType} subscriptions to swap_updated; delete one before creating another`);
    // v1 and v2 count apart.
    expectStatus(await subscribeAs(key, 'v2', 'orderUpdated'), 201);
  });
});

describe('re-sending an event', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Jobs run only when the test ticks them: deliveries stay pending until then.
    server = await startTestServer({ env: { RAMP_JOB_INTERVAL_MS: '3600000' } });
  });
  afterAll(() => server.close());

  const resend = (eventId: string) => server.api.POST('/sandbox/webhook_event/{eventId}/resend', { params: { path: { eventId } } });
  const deliveriesOfEvent = async (eventId: string) => server.services.storage.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).execute();

  it('makes no second delivery to a subscription that still has one pending, however many re-sends come at once', async () => {
    const receiver = await startReceiver();
    try {
      const subscriptions = await Promise.all(['/a', '/b'].map((path) => subscribe(server, `${receiver.url}${path}`, 'kybUpdated')));
      const eventId = await emitV2(server, 'kybUpdated');
      const original = await deliveriesOfEvent(eventId);
      const answers = await Promise.all(Array.from({ length: 5 }, () => resend(eventId)));
      for (const answer of answers) {
        const { deliveries } = expectStatus(answer, 202);
        expect(deliveries.map((d) => [d.subscriptionId, d.status]).sort()).toEqual(subscriptions.map((s) => [s.id, 'pending']).sort());
        expect(deliveries.map((d) => d.id).sort()).toEqual(original.map((d) => d.id).sort());
      }
      expect(await deliveriesOfEvent(eventId)).toHaveLength(2);
      // Once delivered, a re-send is a new delivery again, one per subscription.
      await server.jobs.tick();
      expect(receiver.received).toHaveLength(2);
      const again = expectStatus(await resend(eventId), 202).deliveries;
      expect(again.filter((d) => !original.some((o) => o.id === d.id))).toHaveLength(2);
      expect(await deliveriesOfEvent(eventId)).toHaveLength(4);
      await server.jobs.tick();
      expect(receiver.received).toHaveLength(4);
    } finally {
      await receiver.close();
    }
  });
});

describe('a sandbox shared by several partners (RAMP_OUTBOUND_PUBLIC_ONLY=true)', () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ env: { RAMP_OUTBOUND_PUBLIC_ONLY: 'true', RAMP_WEBHOOK_RETRY_DELAY_MS: '50' } });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });
  const refusal = 'must not point at a loopback, private or local address in this shared sandbox';

  it('refuses webhook URLs and a jwksUri on loopback, private or local hosts, and still accepts http to a public one', async () => {
    const v2 = expectProblem(await server.api.POST('/webhook_subscription', { body: { url: `${receiver.url}/hook`, eventType: 'orderUpdated' } }), 400, 'validation-error');
    expect(v2.errors).toEqual([{ pointer: '/url', detail: refusal }]);
    const v1 = await server.api.POST('/ramp/webhook', { body: { url: 'https://10.0.0.8/hook', eventType: 'order_updated' } });
    expect(expectPlainError(v1, 400).error).toBe(`url ${refusal}`);
    const issuer = expectProblem(await server.api.PUT('/jwt_issuer', { body: { issuer: 'https://idp.partner.example', jwksUri: `${receiver.url}/jwks` } }), 400, 'validation-error');
    expect(issuer.errors).toEqual([{ pointer: '/jwksUri', detail: refusal }]);
    expectStatus(await server.api.POST('/webhook_subscription', { body: { url: 'http://partner.example/hook', eventType: 'orderUpdated' } }), 201);
    // Still a sandbox: its simulators answer.
    expectProblem(await server.api.POST('/sandbox/webhook_event/{eventId}/resend', { params: { path: { eventId: crypto.randomUUID() } } }), 404, 'not-found');
    expect(receiver.received).toHaveLength(0);
  });

  it('never delivers to a private address, even one a subscription row names', async () => {
    // A row written behind the API's back (or before the setting was on) is refused when connecting.
    const now = new Date().toISOString();
    const id = crypto.randomUUID();
    await server.services.storage.db.insertInto('webhook_subscriptions').values({
      id, surface: 'v2', organization_id: server.partnerId, event_type: 'kycUpdated', url: `${receiver.url}/private`,
      secret: `${Buffer.alloc(32, 1).toString('base64url')}=`, created_at: now, updated_at: now,
    }).execute();
    await emitV2(server, 'kycUpdated');
    const [delivery] = await eventually(async () => {
      const deliveries = await deliveriesOf(server, id);
      return deliveries.length === 1 && deliveries[0]!.status !== 'pending' && deliveries;
    });
    expect(delivery!.status).toBe('abandoned');
    for (const attempt of delivery!.attempts) expect(attempt.error).toMatch(/^address not allowed: 127\.0\.0\.1 is not a public address/);
    expect(receiver.received).toHaveLength(0);
  });
});
