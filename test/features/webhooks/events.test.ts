/**
 * Every webhook event of v1.yaml and v2.yaml, end to end. Each one is produced by the public
 * operations a partner or the sandbox simulators call over HTTP, delivered to a real
 * receiver on loopback through a subscription made with the subscription endpoints (v1 over
 * https), and checked as a receiver would: the signature with `canonicalize` and node:crypto
 * (and with the client's verifyWebhook), the body against the event's webhook schema in the
 * bundle, and the object against its GET read right after. A non-change sends nothing: that
 * is checked once a later real change has arrived and every delivery of the subscription
 * has settled, so anything the non-change had recorded would have arrived before.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../../client/index.ts';
import { verifyWebhook } from '../../../client/webhooks.ts';
import { describeAnswer, expectStatus, type Answer, type RequestBody } from '../../support/api.ts';
import { createCustomer, customerClabe, order as createOrder, solanaAddress } from '../../support/fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createBankAccount, randomSolanaAddress } from '../../support/v1Money.ts';
import { company, person, v1Person } from '../../support/verification.ts';
import { deliveriesOf, eventBody, eventually, selfSignedCertificate, startReceiver, storedDeliveries, subscribe, subscribeV1, webhookValidator, type Received, type Receiver, type WebhookBody, type WebhookName } from '../../support/webhooks.ts';
import { waitBudget } from '../../support/wait.ts';

/** A webhook body as the receiver parsed it: checked against its schema by checkDelivery. */
type Surface = 'v1' | 'v2';

interface Subscription<E extends WebhookName = WebhookName> {
  id: string;
  secret: string;
  surface: Surface;
  type: E;
  receiver: Receiver;
  path: string;
}

let server: TestServer;
let plain: Receiver;
let secure: Receiver;
/** Every v2 eventId received so far: each must be new. */
const eventIds = new Set<string>();
/** A valid secret of no subscription: it must not verify any delivery. */
const strangerSecret = `${randomBytes(32).toString('base64url')}=`;

beforeAll(async () => {
  // Compiled before any delivery waits on this process's event loop.
  webhookValidator();
  const tls = selfSignedCertificate();
  plain = await startReceiver();
  secure = await startReceiver(() => 200, tls);
  server = await startTestServer({
    env: {
      RAMP_WEBHOOK_RETRY_DELAY_MS: '300',
      // v1 subscriptions must be https: the receiver's self-signed certificate is trusted.
      RAMP_WEBHOOK_CA_FILE: tls.certFile,
      // A funded v1 onramp waits for the simulator, not the clock, so each GET sees the event's state.
      RAMP_V1_DELIVERY_SECONDS: '3600',
    },
  });
});
afterAll(async () => {
  await server?.close();
  await plain?.close();
  await secure?.close();
});

// ---- HTTP -----------------------------------------------------------------------------

/** The answer was a success (2xx), whichever the operation documents. */
function succeeded(answer: Answer) {
  expect(answer.response.ok, describeAnswer(answer)).toBe(true);
}

/** A v2 subscription of its own (a fresh path on the plain receiver), made with `createWebhookSubscription`. */
async function v2Subscription<E extends Schema<'WebhookEventType'>>(type: E): Promise<Subscription<E>> {
  const path = `/v2/${type}/${randomUUID()}`;
  return subscription('v2', type, plain, path, await subscribe(server, `${plain.url}${path}`, type));
}

/** A v1 subscription of its own (a fresh path on the https receiver), made with `v1CreateWebhook`. */
async function v1Subscription<E extends Schema<'V1WebhookEventType'>>(type: E): Promise<Subscription<E>> {
  const path = `/v1/${type}/${randomUUID()}`;
  return subscription('v1', type, secure, path, await subscribeV1(server, `${secure.url}${path}`, type));
}

function subscription<E extends WebhookName>(surface: Surface, type: E, receiver: Receiver, path: string, created: { id: string; secret: string }): Subscription<E> {
  expect(created.secret).toMatch(/^[A-Za-z0-9_-]{43}=$/);
  return { id: created.id, secret: created.secret, surface, type, receiver, path };
}

/** A customer organization of the partner, made as a partner does. */
const customer = (type: 'personal' | 'business') => createCustomer(server, { type, displayName: `${type} customer ${randomUUID().slice(0, 8)}` });

/** A person whose KYC the sandbox provider approved. */
const approvedPerson = () => createCustomer(server, { type: 'personal', displayName: `personal customer ${randomUUID().slice(0, 8)}`, approved: true });

/** The SPEI CLABE an order's funding instructions send the deposit to. */
function depositClabe(order: Schema<'Order'>): string {
  const destination = order.fundingInstructions?.destination;
  if (destination?.type !== 'spei' || destination.clabe === undefined) throw new Error(`order ${order.id} has no SPEI funding destination: ${JSON.stringify(order.fundingInstructions)}`);
  return destination.clabe;
}

// ---- receiving ----------------------------------------------------------------------------

/** What a receiver checks on every delivery, apart from the server's code. */
async function checkDelivery(sub: Subscription, request: Received, since: number, organizationId: string) {
  expect(request.headers['content-type']).toBe('application/json');
  const header = request.headers['x-signature'];
  expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
  const key = Buffer.from(sub.secret, 'base64url');
  expect(key).toHaveLength(32);
  const canonical = canonicalize(JSON.parse(request.raw.toString('utf8')));
  expect(canonical).toBeDefined();
  expect(`sha256=${createHmac('sha256', key).update(canonical!, 'utf8').digest('hex')}`).toBe(header);
  // The client agrees, and another secret does not verify it.
  const body = eventBody(request, sub.type);
  expect(await verifyWebhook({ body: request.raw, signature: header, secret: sub.secret })).toEqual(body);
  await expect(verifyWebhook({ body: request.raw, signature: header, secret: strangerSecret })).rejects.toMatchObject({ reason: 'signature-mismatch' });
  if (sub.surface === 'v1') {
    expect(Object.keys(body)).toEqual([sub.type]);
    return;
  }
  const event = body as WebhookBody<Schema<'WebhookEventType'>>;
  expect(event.event).toBe(sub.type);
  expect(eventIds.has(event.eventId), `eventId ${event.eventId} seen before`).toBe(false);
  eventIds.add(event.eventId);
  // When it happened: during the operation, before it arrived, and not before the object's last change.
  const occurredAt = Date.parse(event.occurredAt);
  expect(new Date(occurredAt).toISOString()).toBe(event.occurredAt);
  expect(occurredAt).toBeGreaterThanOrEqual(since);
  expect(occurredAt).toBeLessThanOrEqual(request.at);
  const object = 'order' in event ? event.order : 'paymentAccount' in event ? event.paymentAccount : 'kyc' in event ? event.kyc : event.kyb;
  expect(Date.parse(object.updatedAt)).toBeLessThanOrEqual(occurredAt);
  if ('order' in event) {
    expect(event).not.toHaveProperty('organizationId');
    expect(event.order.organizationId).toBe(organizationId);
  } else {
    expect(event.organizationId).toBe(organizationId);
  }
}

/** What arrived for `sub` about the object `about` picks, each body checked against the subscription's webhook schema. */
const arrivals = <E extends WebhookName>(sub: Subscription<E>, about: (body: WebhookBody<E>) => boolean) =>
  sub.receiver.to(sub.path).map((request) => ({ ...request, body: eventBody(request, sub.type) })).filter((r) => about(r.body));

/**
 * Runs one operation that changes something and returns the one event it sends to `sub`
 * about the object `about` picks, checked; `organizationId` is the object's owner.
 */
async function eventOf<E extends WebhookName>(
  sub: Subscription<E>,
  about: (body: WebhookBody<E>) => boolean,
  organizationId: string,
  operation: () => Promise<Answer>,
): Promise<WebhookBody<E>> {
  const before = arrivals(sub, about).length;
  const since = Date.now();
  succeeded(await operation());
  const request = await eventually(() => arrivals(sub, about)[before], waitBudget, `${sub.type} #${before + 1}`);
  await checkDelivery(sub, request, since, organizationId);
  return request.body;
}

/**
 * Waits until every delivery of the subscription has settled (v2: the deliveries endpoint;
 * v1, which has none: the same view read from storage), then checks each was delivered once.
 */
async function settled(sub: Subscription) {
  const deliveries = await eventually(async () => {
    const all = sub.surface === 'v2' ? await deliveriesOf(server, sub.id) : await storedDeliveries(server, sub.id);
    return all.every((d) => d.status !== 'pending') && all;
  }, waitBudget, `deliveries of ${sub.type} to settle`);
  expect(deliveries.map((d) => d.status)).toEqual(deliveries.map(() => 'delivered'));
  expect(sub.receiver.to(sub.path)).toHaveLength(deliveries.length);
}

// ---- v2 -------------------------------------------------------------------------------

describe('v2 events', () => {
  it('orderUpdated: on every status change and on replaced funding instructions, never on creation or a repeated cancel; the order as its GET returns it', async () => {
    const sub = await v2Subscription('orderUpdated');
    const org = await approvedPerson();
    const wallet = solanaAddress();
    expectStatus(await server.api.POST('/organization/{organizationId}/wallet', { params: { path: { organizationId: org } }, body: { custody: 'external', address: wallet, blockchain: 'solana' } }), 201);
    const newOrder = () => createOrder(server, org, { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: wallet });
    const path = (id: string) => ({ params: { path: { organizationId: org, id } } });
    const order = async (id: string) => expectStatus(await server.api.GET('/organization/{organizationId}/order/{id}', path(id)), 200);
    const about = (id: string) => (body: WebhookBody<'orderUpdated'>) => body.order.id === id;
    const simulate = (id: string, body: RequestBody<'simulateOrder'>) => server.api.POST('/sandbox/organization/{organizationId}/order/{id}/simulate', { ...path(id), body });
    const cancel = (id: string) => server.api.POST('/organization/{organizationId}/order/{id}/cancel', path(id));

    // Created (no event), then its funding instructions replaced: same status, new destination.
    const a = await newOrder();
    let body = await eventOf(sub, about(a.id), org, () => simulate(a.id, { action: 'replaceFundingInstructions' }));
    expect(body.order).toEqual(await order(a.id));
    expect(body.order.status).toBe('created');
    expect(depositClabe(body.order)).not.toBe(depositClabe(a));
    // The SPEI deposit arrives.
    body = await eventOf(sub, about(a.id), org, () => server.api.POST('/sandbox/organization/{organizationId}/order/{id}/deposit', { ...path(a.id), body: { autoComplete: false } }));
    expect(body.order).toEqual(await order(a.id));
    expect(body.order.status).toBe('funded');
    // The tokens are delivered.
    body = await eventOf(sub, about(a.id), org, () => simulate(a.id, { action: 'deliver' }));
    expect(body.order).toEqual(await order(a.id));
    expect(body.order.status).toBe('completed');

    // The partner cancels an order; canceling it again returns it unchanged and sends nothing.
    const b = await newOrder();
    body = await eventOf(sub, about(b.id), org, () => cancel(b.id));
    expect(body.order).toEqual(await order(b.id));
    expect(body.order.status).toBe('canceled');
    expect(expectStatus(await cancel(b.id), 200)).toEqual(body.order);

    // A later real change: a failure.
    const c = await newOrder();
    body = await eventOf(sub, about(c.id), org, () => simulate(c.id, { action: 'fail', failure: { code: 'bankRejected', message: 'The bank rejected the deposit.' } }));
    expect(body.order).toEqual(await order(c.id));
    expect(body.order).toMatchObject({ status: 'failed', failure: { code: 'bankRejected', message: 'The bank rejected the deposit.' } });

    await settled(sub);
    const statuses = (id: string) => arrivals(sub, about(id)).map((r) => r.body.order.status);
    expect(statuses(a.id)).toEqual(['created', 'funded', 'completed']);
    expect(statuses(b.id)).toEqual(['canceled']);
    expect(statuses(c.id)).toEqual(['failed']);
  });

  it('paymentAccountUpdated: on a change of the account status or of a rail direction, not on registration or a repeated state; the account as its GET returns it', async () => {
    const sub = await v2Subscription('paymentAccountUpdated');
    const org = await approvedPerson();
    const clabe = customerClabe();
    const about = (body: WebhookBody<'paymentAccountUpdated'>) => body.paymentAccount.accountDetails.clabe === clabe;
    let id = '';
    const path = () => ({ params: { path: { organizationId: org, id } } });
    const account = async () => expectStatus(await server.api.GET('/organization/{organizationId}/payment_account/{id}', path()), 200);
    const simulate = (body: RequestBody<'simulatePaymentAccount'>) => server.api.POST('/sandbox/organization/{organizationId}/payment_account/{id}/simulate', { ...path(), body });

    // Registered pending (no event); the rail verifies it on its own (the service's job).
    let body = await eventOf(sub, about, org, async () => {
      const answer = await server.api.POST('/organization/{organizationId}/payment_account', {
        params: { path: { organizationId: org } },
        body: { kind: 'bankAccount', rail: 'spei', accountDetails: { clabe }, registrationInfo: { accountHolderName: 'María Gómez Martínez', taxId: 'GOMM900101AB3' } },
      });
      const registered = expectStatus(answer, 201);
      expect(registered).toMatchObject({ status: 'pending', rails: { spei: { destination: 'pending' } } });
      id = registered.id;
      return answer;
    });
    expect(body.paymentAccount).toEqual(await account());
    expect(body.paymentAccount).toMatchObject({ id, status: 'ready', rails: { spei: { destination: 'ready' } } });
    // Setting a direction to what it already is changes nothing.
    expect(expectStatus(await simulate({ action: 'setRailStatus', rail: 'spei', direction: 'destination', status: 'ready' }), 200)).toEqual(body.paymentAccount);
    // Disabled, enabled again (pending while the rail verifies it), then ready.
    body = await eventOf(sub, about, org, () => simulate({ action: 'disable' }));
    expect(body.paymentAccount).toEqual(await account());
    expect(body.paymentAccount).toMatchObject({ status: 'disabled', rails: { spei: { destination: 'disabled' } } });
    const enabledAt = Date.now();
    body = await eventOf(sub, about, org, () => simulate({ action: 'enable' }));
    expect(body.paymentAccount).toMatchObject({ status: 'pending', rails: { spei: { destination: 'pending' } } });
    const ready = await eventually(() => arrivals(sub, about)[3], waitBudget, 'the account ready again');
    await checkDelivery(sub, ready, enabledAt, org);
    expect(ready.body.paymentAccount).toEqual(await account());
    expect(ready.body.paymentAccount).toMatchObject({ status: 'ready', rails: { spei: { destination: 'ready' } } });

    await settled(sub);
    expect(arrivals(sub, about).map((r) => [r.body.paymentAccount.status, r.body.paymentAccount.rails.spei?.destination])).toEqual([
      ['ready', 'ready'], ['disabled', 'disabled'], ['pending', 'pending'], ['ready', 'ready'],
    ]);
  });

  it('kycUpdated: on every status change, and with needsWork and no status change for an unapplied write or a new message; the KYC as its GET returns it', async () => {
    const sub = await v2Subscription('kycUpdated');
    const org = await customer('personal');
    const about = (body: WebhookBody<'kycUpdated'>) => body.organizationId === org;
    const params = { path: { organizationId: org } };
    const kyc = async (query: { requirements?: boolean } = {}) => expectStatus(await server.api.GET('/organization/{organizationId}/kyc', { params: { ...params, query } }), 200);
    const submit = (body: Schema<'KycRequest'>) => server.api.PUT('/organization/{organizationId}/kyc', { params, body });
    const simulate = (body: RequestBody<'simulateKyc'>) => server.api.POST('/sandbox/organization/{organizationId}/kyc', { params, body });

    // An accepted write that cannot be applied: needsWork with a point-in-time message, status unchanged.
    let body = await eventOf(sub, about, org, () => submit({ ...person, taxId: 'XAXX010101000' }));
    const now = await kyc();
    expect(body.kyc).toMatchObject({ status: 'notStarted', approved: false, needsWork: true, userMessage: expect.stringContaining('XAXX010101000') });
    expect(now.status).toBe('notStarted');
    // The GET does not echo the message; otherwise the object is the same.
    expect(now.userMessage).not.toBe(body.kyc.userMessage);
    expect(body.kyc).toEqual({ ...now, needsWork: true, userMessage: body.kyc.userMessage });

    // Submitted; the same submission again changes nothing.
    body = await eventOf(sub, about, org, () => submit(person));
    expect(body.kyc).toEqual(await kyc());
    expect(body.kyc).toMatchObject({ status: 'submitted', approved: false, needsWork: false });
    expect(expectStatus(await submit(person), 200)).toEqual(body.kyc);

    // The next stage arrives: back to inProgress with new requirements, read upon the event.
    body = await eventOf(sub, about, org, () => simulate({ status: 'inProgress' }));
    expect(body.kyc).toEqual(await kyc());
    expect(body.kyc).toMatchObject({ status: 'inProgress', needsWork: true, userMessage: expect.any(String) });
    expect((await kyc({ requirements: true })).requirements?.length).toBeGreaterThan(0);

    // A new message for the customer, no status change.
    const message = 'Upload a clearer photo of the front of your ID.';
    body = await eventOf(sub, about, org, () => simulate({ status: 'inProgress', needsWork: true, userMessage: message }));
    expect(body.kyc).toEqual(await kyc());
    expect(body.kyc).toMatchObject({ status: 'inProgress', needsWork: true, userMessage: message });

    // Approved.
    body = await eventOf(sub, about, org, () => simulate({ status: 'approved' }));
    expect(body.kyc).toEqual(await kyc());
    expect(body.kyc).toMatchObject({ status: 'approved', approved: true, needsWork: false });

    await settled(sub);
    expect(arrivals(sub, about).map((r) => [r.body.kyc.status, r.body.kyc.needsWork])).toEqual([
      ['notStarted', true], ['submitted', false], ['inProgress', true], ['inProgress', true], ['approved', false],
    ]);
  });

  it('kybUpdated: only on a real status change, not on an edit of the answers; the KYB as its GET returns it', async () => {
    const sub = await v2Subscription('kybUpdated');
    const org = await customer('business');
    const about = (body: WebhookBody<'kybUpdated'>) => body.organizationId === org;
    const params = { path: { organizationId: org } };
    const kyb = async () => expectStatus(await server.api.GET('/organization/{organizationId}/kyb', { params }), 200);
    const submit = (body: Schema<'KybRequest'>) => server.api.PUT('/organization/{organizationId}/kyb', { params, body });

    let body = await eventOf(sub, about, org, () => submit(company));
    expect(body.kyb).toEqual(await kyb());
    expect(body.kyb).toMatchObject({ status: 'submitted', approvedAt: null });
    // An edited answer: accepted, still submitted, no event.
    const edited = expectStatus(await submit({ ...company, phone: '+525511112222' }), 200);
    expect(edited.status).toBe('submitted');

    body = await eventOf(sub, about, org, () => server.api.POST('/sandbox/organization/{organizationId}/kyb', { params, body: { status: 'approved' } }));
    expect(body.kyb).toEqual(await kyb());
    expect(body.kyb).toMatchObject({ status: 'approved', approvedAt: body.occurredAt });

    await settled(sub);
    expect(arrivals(sub, about).map((r) => r.body.kyb.status)).toEqual(['submitted', 'approved']);
  });
});

// ---- v1 -------------------------------------------------------------------------------

describe('v1 events (https)', () => {
  async function v1Wallet(customerId: string) {
    return expectStatus(await server.api.POST('/ramp/wallet', { body: { customerId, custody: 'external', blockchain: 'solana', address: randomSolanaAddress() } }), 201);
  }
  const v1Customer = async (id: string) => expectStatus(await server.api.GET('/ramp/customer/{customer_id}', { params: { path: { customer_id: id } } }), 200);
  const submitV1Kyc = async (id: string, body: Schema<'V1SubmitKycRequest'>) => succeeded(await server.api.POST('/ramp/customer/{customer_id}/kyc', { params: { path: { customer_id: id } }, body }));
  const simulateV1Kyc = (id: string, body: RequestBody<'v1SimulateCustomerKyc'>) => server.api.POST('/sandbox/ramp/customer/{customer_id}/kyc', { params: { path: { customer_id: id } }, body });

  it('order_updated: on every status change of an onramp and an offramp, never on creation or a regenerated transaction; the order as its GET returns it', async () => {
    const sub = await v1Subscription('order_updated');
    const customerId = await approvedPerson();
    const wallet = await v1Wallet(customerId);
    const bank = await createBankAccount(server, customerId);
    const create = async (type: 'onramp' | 'offramp') =>
      expectStatus(await server.api.POST('/ramp/order', {
        body: type === 'onramp'
          ? { customerId, type, token: 'CETES', walletId: wallet.id, sourceAmount: '250.00' }
          : { customerId, type, token: 'CETES', walletId: wallet.id, sourceAmount: '100.000000', bankAccountId: bank.internalAccountId },
      }), 201);
    const path = (id: string) => ({ params: { path: { id } } });
    const order = async (id: string) => expectStatus(await server.api.GET('/ramp/order/{id}', path(id)), 200);
    const about = (id: string) => (body: WebhookBody<'order_updated'>) => body.order_updated.id === id;
    const simulate = (id: string, action: RequestBody<'v1SimulateOrder'>['action']) => server.api.POST('/sandbox/ramp/order/{id}/simulate', { ...path(id), body: { action } });

    // Onramp: the MXN deposit, then the tokens.
    const onramp = await create('onramp');
    let body = await eventOf(sub, about(onramp.id), customerId, () => server.api.POST('/ramp/order/fiat_received', { body: { orderId: onramp.id } }));
    expect(body).toEqual({ order_updated: await order(onramp.id) });
    expect(body.order_updated.status).toBe('funded');
    body = await eventOf(sub, about(onramp.id), customerId, () => simulate(onramp.id, 'tokensDelivered'));
    expect(body).toEqual({ order_updated: await order(onramp.id) });
    expect(body.order_updated).toMatchObject({ status: 'completed', confirmedTxSignature: expect.any(String) });

    // Offramp: a regenerated burn transaction sends nothing; burn, payout, reversal window.
    const offramp = await create('offramp');
    expectStatus(await server.api.POST('/ramp/order/{id}/regenerate_tx', path(offramp.id)), 200);
    for (const [action, status] of [['burnConfirmed', 'funded'], ['fiatSent', 'completed'], ['reversalWindowPassed', 'finalized']] as const) {
      body = await eventOf(sub, about(offramp.id), customerId, () => simulate(offramp.id, action));
      expect(body).toEqual({ order_updated: await order(offramp.id) });
      expect(body.order_updated.status).toBe(status);
    }

    // Canceled before funding.
    const canceled = await create('onramp');
    body = await eventOf(sub, about(canceled.id), customerId, () => server.api.POST('/ramp/order/{id}/cancel', path(canceled.id)));
    expect(body).toEqual({ order_updated: await order(canceled.id) });
    expect(body.order_updated.status).toBe('canceled');

    await settled(sub);
    const statuses = (id: string) => arrivals(sub, about(id)).map((r) => r.body.order_updated.status);
    expect(statuses(onramp.id)).toEqual(['funded', 'completed']);
    expect(statuses(offramp.id)).toEqual(['funded', 'completed', 'finalized']);
    expect(statuses(canceled.id)).toEqual(['canceled']);
  });

  it('swap_updated: on every status change and the distinct funds-received update, never on creation, an expired or a regenerated transaction; the swap as its GET returns it', async () => {
    const sub = await v1Subscription('swap_updated');
    const customerId = await approvedPerson();
    const wallet = await v1Wallet(customerId);
    const swap = expectStatus(await server.api.POST('/ramp/swap', { body: { customerId, walletId: wallet.id, sourceToken: 'CETES', targetToken: 'USDC', sourceAmount: '50.000000' } }), 201);
    const path = { params: { path: { id: swap.id } } };
    const about = (body: WebhookBody<'swap_updated'>) => body.swap_updated.id === swap.id;
    const simulate = (action: RequestBody<'v1SimulateSwap'>['action']) => server.api.POST('/sandbox/ramp/swap/{id}/simulate', { ...path, body: { action } });

    expectStatus(await simulate('expireTransaction'), 200);
    expectStatus(await server.api.POST('/ramp/swap/{id}/regenerate_tx', path), 200);
    const statuses: string[] = [];
    for (const [action, status] of [['sendConfirmed', 'funded'], ['fundsReceived', 'funded'], ['delivered', 'completed']] as const) {
      const body = await eventOf(sub, about, customerId, () => simulate(action));
      expect(body).toEqual({ swap_updated: expectStatus(await server.api.GET('/ramp/swap/{id}', path), 200) });
      expect(body.swap_updated.status).toBe(status);
      statuses.push(status);
    }
    expect(arrivals(sub, about).at(-1)!.body.swap_updated).toMatchObject({ sendTransactionHash: expect.any(String), receiveTransactionHash: expect.any(String) });

    await settled(sub);
    expect(arrivals(sub, about).map((r) => r.body.swap_updated.status)).toEqual(statuses);
  });

  it('customer_updated: when the verification status changes, not on a submission; the customer as its GET returns it', async () => {
    const sub = await v1Subscription('customer_updated');
    const verified = await customer('personal');
    const failed = await customer('personal');
    const about = (id: string) => (body: WebhookBody<'customer_updated'>) => body.customer_updated.customerId === id;

    // A submission leaves the customer pending: nothing.
    await submitV1Kyc(verified, v1Person);
    let body = await eventOf(sub, about(verified), verified, () => simulateV1Kyc(verified, { status: 'kyc_approved' }));
    expect(body).toEqual({ customer_updated: await v1Customer(verified) });
    expect(body.customer_updated.status).toBe('customer_verified');

    await submitV1Kyc(failed, v1Person);
    body = await eventOf(sub, about(failed), failed, () => simulateV1Kyc(failed, { status: 'kyc_rejected', final: true, updateReason: 'The ID is not genuine' }));
    expect(body).toEqual({ customer_updated: await v1Customer(failed) });
    expect(body.customer_updated.status).toBe('customer_failed');

    await settled(sub);
    expect(arrivals(sub, about(verified)).map((r) => r.body.customer_updated.status)).toEqual(['customer_verified']);
    expect(arrivals(sub, about(failed)).map((r) => r.body.customer_updated.status)).toEqual(['customer_failed']);
  });

  it('kyc_updated: when a submission is reviewed (rejected, then approved), not when one is made; the KYC as its GET returns it, with the customerId', async () => {
    const sub = await v1Subscription('kyc_updated');
    const id = await customer('personal');
    const about = (body: WebhookBody<'kyc_updated'>) => body.kyc_updated.customerId === id;
    const kyc = async () => expectStatus(await server.api.GET('/ramp/customer/{customer_id}/kyc', { params: { path: { customer_id: id } } }), 200);

    await submitV1Kyc(id, v1Person);
    const reason = 'The proof of address is older than three months';
    let body = await eventOf(sub, about, id, () => simulateV1Kyc(id, { status: 'kyc_rejected', updateReason: reason }));
    expect(body).toEqual({ kyc_updated: { ...(await kyc()), customerId: id } });
    expect(body.kyc_updated).toEqual({ status: 'kyc_rejected', approved: false, updateReason: reason, needsWork: true, userMessage: expect.any(String), customerId: id });

    // Submitting again is not a review.
    await submitV1Kyc(id, { ...v1Person, address: { ...v1Person.address, postalCode: '06500' } });
    body = await eventOf(sub, about, id, () => simulateV1Kyc(id, { status: 'kyc_approved' }));
    expect(body).toEqual({ kyc_updated: { ...(await kyc()), customerId: id } });
    // On approval only status and approved (V1Kyc).
    expect(body.kyc_updated).toEqual({ status: 'kyc_approved', approved: true, customerId: id });

    await settled(sub);
    expect(arrivals(sub, about).map((r) => r.body.kyc_updated.status)).toEqual(['kyc_rejected', 'kyc_approved']);
  });

  it('kyb_updated: only on a real status change, not on an edit of the answers; the KYB as the v1 simulator and the v2 GET show it', async () => {
    const sub = await v1Subscription('kyb_updated');
    const org = await customer('business');
    const about = (body: WebhookBody<'kyb_updated'>) => body.kyb_updated.organizationId === org;
    const v1Status: Record<string, string> = { notStarted: 'not_started', inProgress: 'awaiting_documents', submitted: 'awaiting_review', approved: 'approved', denied: 'denied' };
    const params = { path: { organizationId: org } };
    /** The v1 payload agrees with the KYB's GET (v1 has no KYB read). */
    const agreesWithGet = async (entity: WebhookBody<'kyb_updated'>['kyb_updated']) => {
      const v2 = expectStatus(await server.api.GET('/organization/{organizationId}/kyb', { params }), 200);
      expect(entity).toMatchObject({ organizationId: org, status: v1Status[v2.status], approvedAt: v2.approvedAt });
    };
    const submit = (body: Schema<'KybRequest'>) => server.api.PUT('/organization/{organizationId}/kyb', { params, body });
    /** `v1SimulateKyb`, keeping the KYB it answers. */
    let simulated: unknown;
    const simulate = async (status: RequestBody<'v1SimulateKyb'>['status']) => {
      const answer = await server.api.POST('/sandbox/ramp/organization/{org_id}/kyb', { params: { path: { org_id: org } }, body: { status } });
      simulated = answer.data;
      return answer;
    };

    let body = await eventOf(sub, about, org, () => simulate('awaiting_documents'));
    expect(body).toEqual({ kyb_updated: simulated });
    await agreesWithGet(body.kyb_updated);
    expect(body.kyb_updated.status).toBe('awaiting_documents');

    body = await eventOf(sub, about, org, () => submit(company));
    await agreesWithGet(body.kyb_updated);
    expect(body.kyb_updated).toMatchObject({ status: 'awaiting_review', approvedAt: null });
    // An edited answer: no event.
    expectStatus(await submit({ ...company, email: 'contabilidad@tacoselguero.example' }), 200);

    body = await eventOf(sub, about, org, () => simulate('approved'));
    expect(body).toEqual({ kyb_updated: simulated });
    await agreesWithGet(body.kyb_updated);
    expect(body.kyb_updated).toMatchObject({ status: 'approved', approvedAt: expect.any(String) });

    await settled(sub);
    expect(arrivals(sub, about).map((r) => r.body.kyb_updated.status)).toEqual(['awaiting_documents', 'awaiting_review', 'approved']);
  });

  it('bank_account_updated: when the verification status changes, not on registration nor on a change of compliant alone; the account as its GET returns it', async () => {
    const sub = await v1Subscription('bank_account_updated');
    const customerId = await approvedPerson();
    const account = await createBankAccount(server, customerId, { usable: false });
    const id = account.internalAccountId;
    expect(account.status).toBe('bank_account_pending');
    const about = (body: WebhookBody<'bank_account_updated'>) => body.bank_account_updated.internalAccountId === id;
    const path = { params: { path: { id } } };
    const simulate = (body: RequestBody<'v1SimulateBankAccount'>) => server.api.POST('/sandbox/ramp/bank-account/{id}/status', { ...path, body });
    const current = async () => expectStatus(await server.api.GET('/ramp/bank-account/{id}', path), 200);

    let body = await eventOf(sub, about, customerId, () => simulate({ status: 'bank_account_awaiting_deposit_verification' }));
    expect(body).toEqual({ bank_account_updated: await current() });
    expect(body.bank_account_updated.status).toBe('bank_account_awaiting_deposit_verification');
    // compliant alone changes: no event.
    const flipped = expectStatus(await simulate({ status: 'bank_account_awaiting_deposit_verification', compliant: !account.compliant }), 200);
    expect(flipped.compliant).toBe(!account.compliant);

    body = await eventOf(sub, about, customerId, () => simulate({ status: 'bank_account_active', compliant: true }));
    expect(body).toEqual({ bank_account_updated: await current() });
    expect(body.bank_account_updated).toMatchObject({ status: 'bank_account_active', compliant: true });

    await settled(sub);
    expect(arrivals(sub, about).map((r) => r.body.bank_account_updated.status)).toEqual(['bank_account_awaiting_deposit_verification', 'bank_account_active']);
  });
});
