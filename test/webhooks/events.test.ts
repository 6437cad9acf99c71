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
import { verifyWebhook } from '../../client/webhooks.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { newClabe, randomSolanaAddress } from '../support/v1Money.ts';
import { company, person, v1Person } from '../support/verification.ts';
import { deliveriesOf, eventually, selfSignedCertificate, startReceiver, storedDeliveries, webhookValidator, type Received, type Receiver } from './support.ts';
import { waitBudget } from '../support/wait.ts';
import { customerClabe, solanaAddress } from '../support/fixtures.ts';

type Json = any;
type Surface = 'v1' | 'v2';

interface Subscription {
  id: string;
  secret: string;
  surface: Surface;
  type: string;
  receiver: Receiver;
  path: string;
}

let server: TestServer;
let plain: Receiver;
let secure: Receiver;
let validate: ReturnType<typeof webhookValidator>;
/** Every v2 eventId received so far: each must be new. */
const eventIds = new Set<string>();
/** A valid secret of no subscription: it must not verify any delivery. */
const strangerSecret = `${randomBytes(32).toString('base64url')}=`;

beforeAll(async () => {
  validate = webhookValidator();
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

async function ok(response: Promise<Response & { json_: Json; text_: string }>, status?: number): Promise<Json> {
  const r = await response;
  if (status !== undefined) expect(r.status, r.text_).toBe(status);
  else expect(r.ok, `${r.status} ${r.text_}`).toBe(true);
  return r.json_;
}

const post = (path: string, body?: unknown) => server.call('POST', path, body === undefined ? {} : { body });
const get = (path: string) => ok(server.call('GET', path), 200);

/** A subscription of its own (a fresh path on the receiver), made with the surface's endpoint. */
async function subscribe(surface: Surface, type: string): Promise<Subscription> {
  const receiver = surface === 'v2' ? plain : secure;
  const path = `/${surface}/${type}/${randomUUID()}`;
  const created = await ok(post(surface === 'v2' ? '/webhook_subscription' : '/ramp/webhook', { url: `${receiver.url}${path}`, eventType: type }), 201);
  expect(created.secret).toMatch(/^[A-Za-z0-9_-]{43}=$/);
  return { id: created.id, secret: created.secret, surface, type, receiver, path };
}

/** A customer organization of the partner, made as a partner does. */
const customer = async (type: 'personal' | 'business') =>
  (await ok(post('/ramp/organization', { displayName: `${type} customer ${randomUUID().slice(0, 8)}`, type }), 201)).organizationId as string;

/** A person whose KYC the sandbox provider approved. */
async function approvedPerson() {
  const id = await customer('personal');
  await ok(post(`/sandbox/organization/${id}/kyc`, { status: 'approved' }), 200);
  return id;
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
  expect(await verifyWebhook({ body: request.raw, signature: header, secret: sub.secret })).toEqual(request.body);
  await expect(verifyWebhook({ body: request.raw, signature: header, secret: strangerSecret })).rejects.toMatchObject({ reason: 'signature-mismatch' });

  expect(validate(sub.type, request.body), JSON.stringify(request.body)).toEqual([]);
  const body = request.body;
  if (sub.surface === 'v1') {
    expect(Object.keys(body)).toEqual([sub.type]);
    return;
  }
  expect(body.event).toBe(sub.type);
  expect(eventIds.has(body.eventId), `eventId ${body.eventId} seen before`).toBe(false);
  eventIds.add(body.eventId);
  // When it happened: during the operation, before it arrived, and not before the object's last change.
  const occurredAt = Date.parse(body.occurredAt);
  expect(new Date(occurredAt).toISOString()).toBe(body.occurredAt);
  expect(occurredAt).toBeGreaterThanOrEqual(since);
  expect(occurredAt).toBeLessThanOrEqual(request.at);
  const object = body.order ?? body.paymentAccount ?? body.kyc ?? body.kyb;
  expect(Date.parse(object.updatedAt)).toBeLessThanOrEqual(occurredAt);
  if (sub.type === 'orderUpdated') {
    expect(body).not.toHaveProperty('organizationId');
    expect(body.order.organizationId).toBe(organizationId);
  } else {
    expect(body.organizationId).toBe(organizationId);
  }
}

const arrivals = (sub: Subscription, about: (body: Json) => boolean) => sub.receiver.to(sub.path).filter((r) => about(r.body));

/**
 * Runs one operation that changes something and returns the one event it sends to `sub`
 * about the object `about` picks, checked; `organizationId` is the object's owner.
 */
async function eventOf(
  sub: Subscription,
  about: (body: Json) => boolean,
  organizationId: string,
  operation: () => Promise<Response & { json_: Json; text_: string }>,
): Promise<Json> {
  const before = arrivals(sub, about).length;
  const since = Date.now();
  await ok(operation());
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
  expect(deliveries.map((d: Json) => d.status)).toEqual(deliveries.map(() => 'delivered'));
  expect(sub.receiver.to(sub.path)).toHaveLength(deliveries.length);
}

// ---- v2 -------------------------------------------------------------------------------

describe('v2 events', () => {
  it('orderUpdated: on every status change and on replaced funding instructions, never on creation or a repeated cancel; the order as its GET returns it', async () => {
    const sub = await subscribe('v2', 'orderUpdated');
    const org = await approvedPerson();
    const wallet = solanaAddress();
    await ok(post(`/organization/${org}/wallet`, { custody: 'external', address: wallet, blockchain: 'solana' }), 201);
    const newOrder = async () => {
      const quote = await ok(post(`/organization/${org}/quote`, { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: wallet }), 201);
      return ok(post(`/organization/${org}/order`, { quoteId: quote.quoteId }), 201);
    };
    const order = (id: string) => get(`/organization/${org}/order/${id}`);
    const about = (id: string) => (body: Json) => body.order.id === id;
    const simulate = (id: string, body: object) => post(`/sandbox/organization/${org}/order/${id}/simulate`, body);

    // Created (no event), then its funding instructions replaced: same status, new destination.
    const a = await newOrder();
    let body = await eventOf(sub, about(a.id), org, () => simulate(a.id, { action: 'replaceFundingInstructions' }));
    expect(body.order).toEqual(await order(a.id));
    expect(body.order.status).toBe('created');
    expect(body.order.fundingInstructions.destination.clabe).not.toBe(a.fundingInstructions.destination.clabe);
    // The SPEI deposit arrives.
    body = await eventOf(sub, about(a.id), org, () => post(`/sandbox/organization/${org}/order/${a.id}/deposit`, { autoComplete: false }));
    expect(body.order).toEqual(await order(a.id));
    expect(body.order.status).toBe('funded');
    // The tokens are delivered.
    body = await eventOf(sub, about(a.id), org, () => simulate(a.id, { action: 'deliver' }));
    expect(body.order).toEqual(await order(a.id));
    expect(body.order.status).toBe('completed');

    // The partner cancels an order; canceling it again returns it unchanged and sends nothing.
    const b = await newOrder();
    body = await eventOf(sub, about(b.id), org, () => post(`/organization/${org}/order/${b.id}/cancel`));
    expect(body.order).toEqual(await order(b.id));
    expect(body.order.status).toBe('canceled');
    expect(await ok(post(`/organization/${org}/order/${b.id}/cancel`), 200)).toEqual(body.order);

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
    const sub = await subscribe('v2', 'paymentAccountUpdated');
    const org = await approvedPerson();
    const clabe = customerClabe();
    const about = (body: Json) => body.paymentAccount.accountDetails.clabe === clabe;
    let id = '';
    const account = () => get(`/organization/${org}/payment_account/${id}`);
    const simulate = (body: object) => post(`/sandbox/organization/${org}/payment_account/${id}/simulate`, body);

    // Registered pending (no event); the rail verifies it on its own (the service's job).
    let body = await eventOf(sub, about, org, async () => {
      const response = await post(`/organization/${org}/payment_account`, {
        kind: 'bankAccount', rail: 'spei', accountDetails: { clabe }, registrationInfo: { accountHolderName: 'María Gómez Martínez', taxId: 'GOMM900101AB3' },
      });
      expect(response.status, response.text_).toBe(201);
      expect(response.json_).toMatchObject({ status: 'pending', rails: { spei: { destination: 'pending' } } });
      id = response.json_.id;
      return response;
    });
    expect(body.paymentAccount).toEqual(await account());
    expect(body.paymentAccount).toMatchObject({ id, status: 'ready', rails: { spei: { destination: 'ready' } } });
    // Setting a direction to what it already is changes nothing.
    expect(await ok(simulate({ action: 'setRailStatus', rail: 'spei', direction: 'destination', status: 'ready' }), 200)).toEqual(body.paymentAccount);
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
    expect(arrivals(sub, about).map((r) => [r.body.paymentAccount.status, r.body.paymentAccount.rails.spei.destination])).toEqual([
      ['ready', 'ready'], ['disabled', 'disabled'], ['pending', 'pending'], ['ready', 'ready'],
    ]);
  });

  it('kycUpdated: on every status change, and with needsWork and no status change for an unapplied write or a new message; the KYC as its GET returns it', async () => {
    const sub = await subscribe('v2', 'kycUpdated');
    const org = await customer('personal');
    const about = (body: Json) => body.organizationId === org;
    const kyc = () => get(`/organization/${org}/kyc`);

    // An accepted write that cannot be applied: needsWork with a point-in-time message, status unchanged.
    let body = await eventOf(sub, about, org, () => server.call('PUT', `/organization/${org}/kyc`, { body: { ...person, taxId: 'XAXX010101000' } }));
    const now = await kyc();
    expect(body.kyc).toMatchObject({ status: 'notStarted', approved: false, needsWork: true, userMessage: expect.stringContaining('XAXX010101000') });
    expect(now.status).toBe('notStarted');
    // The GET does not echo the message; otherwise the object is the same.
    expect(now.userMessage).not.toBe(body.kyc.userMessage);
    expect(body.kyc).toEqual({ ...now, needsWork: true, userMessage: body.kyc.userMessage });

    // Submitted; the same submission again changes nothing.
    body = await eventOf(sub, about, org, () => server.call('PUT', `/organization/${org}/kyc`, { body: person }));
    expect(body.kyc).toEqual(await kyc());
    expect(body.kyc).toMatchObject({ status: 'submitted', approved: false, needsWork: false });
    expect(await ok(server.call('PUT', `/organization/${org}/kyc`, { body: person }), 200)).toEqual(body.kyc);

    // The next stage arrives: back to inProgress with new requirements, read upon the event.
    body = await eventOf(sub, about, org, () => post(`/sandbox/organization/${org}/kyc`, { status: 'inProgress' }));
    expect(body.kyc).toEqual(await kyc());
    expect(body.kyc).toMatchObject({ status: 'inProgress', needsWork: true, userMessage: expect.any(String) });
    expect((await get(`/organization/${org}/kyc?requirements=true`)).requirements.length).toBeGreaterThan(0);

    // A new message for the customer, no status change.
    const message = 'Upload a clearer photo of the front of your ID.';
    body = await eventOf(sub, about, org, () => post(`/sandbox/organization/${org}/kyc`, { status: 'inProgress', needsWork: true, userMessage: message }));
    expect(body.kyc).toEqual(await kyc());
    expect(body.kyc).toMatchObject({ status: 'inProgress', needsWork: true, userMessage: message });

    // Approved.
    body = await eventOf(sub, about, org, () => post(`/sandbox/organization/${org}/kyc`, { status: 'approved' }));
    expect(body.kyc).toEqual(await kyc());
    expect(body.kyc).toMatchObject({ status: 'approved', approved: true, needsWork: false });

    await settled(sub);
    expect(arrivals(sub, about).map((r) => [r.body.kyc.status, r.body.kyc.needsWork])).toEqual([
      ['notStarted', true], ['submitted', false], ['inProgress', true], ['inProgress', true], ['approved', false],
    ]);
  });

  it('kybUpdated: only on a real status change, not on an edit of the answers; the KYB as its GET returns it', async () => {
    const sub = await subscribe('v2', 'kybUpdated');
    const org = await customer('business');
    const about = (body: Json) => body.organizationId === org;
    const kyb = () => get(`/organization/${org}/kyb`);

    let body = await eventOf(sub, about, org, () => server.call('PUT', `/organization/${org}/kyb`, { body: company }));
    expect(body.kyb).toEqual(await kyb());
    expect(body.kyb).toMatchObject({ status: 'submitted', approvedAt: null });
    // An edited answer: accepted, still submitted, no event.
    const edited = await ok(server.call('PUT', `/organization/${org}/kyb`, { body: { ...company, phone: '+525511112222' } }), 200);
    expect(edited.status).toBe('submitted');

    body = await eventOf(sub, about, org, () => post(`/sandbox/organization/${org}/kyb`, { status: 'approved' }));
    expect(body.kyb).toEqual(await kyb());
    expect(body.kyb).toMatchObject({ status: 'approved', approvedAt: body.occurredAt });

    await settled(sub);
    expect(arrivals(sub, about).map((r) => r.body.kyb.status)).toEqual(['submitted', 'approved']);
  });
});

// ---- v1 -------------------------------------------------------------------------------

describe('v1 events (https)', () => {
  async function v1Wallet(customerId: string) {
    return ok(post('/ramp/wallet', { customerId, custody: 'external', blockchain: 'solana', address: randomSolanaAddress() }), 201);
  }

  it('order_updated: on every status change of an onramp and an offramp, never on creation or a regenerated transaction; the order as its GET returns it', async () => {
    const sub = await subscribe('v1', 'order_updated');
    const customerId = await approvedPerson();
    const wallet = await v1Wallet(customerId);
    const bank = await ok(post('/ramp/bank-account', { customerId, clabe: newClabe(), currency: 'MXN' }), 201);
    await ok(post(`/sandbox/ramp/bank-account/${bank.internalAccountId}/status`, { status: 'bank_account_active', compliant: true }), 200);
    const create = (type: 'onramp' | 'offramp') =>
      ok(post('/ramp/order', {
        customerId, type, token: 'CETES', walletId: wallet.id,
        ...(type === 'onramp' ? { sourceAmount: '250.00' } : { sourceAmount: '100.000000', bankAccountId: bank.internalAccountId }),
      }), 201);
    const order = (id: string) => get(`/ramp/order/${id}`);
    const about = (id: string) => (body: Json) => body.order_updated.id === id;
    const simulate = (id: string, action: string) => post(`/sandbox/ramp/order/${id}/simulate`, { action });

    // Onramp: the MXN deposit, then the tokens.
    const onramp = await create('onramp');
    let body = await eventOf(sub, about(onramp.id), customerId, () => post('/ramp/order/fiat_received', { orderId: onramp.id }));
    expect(body).toEqual({ order_updated: await order(onramp.id) });
    expect(body.order_updated.status).toBe('funded');
    body = await eventOf(sub, about(onramp.id), customerId, () => simulate(onramp.id, 'tokensDelivered'));
    expect(body).toEqual({ order_updated: await order(onramp.id) });
    expect(body.order_updated).toMatchObject({ status: 'completed', confirmedTxSignature: expect.any(String) });

    // Offramp: a regenerated burn transaction sends nothing; burn, payout, reversal window.
    const offramp = await create('offramp');
    await ok(post(`/ramp/order/${offramp.id}/regenerate_tx`), 200);
    for (const [action, status] of [['burnConfirmed', 'funded'], ['fiatSent', 'completed'], ['reversalWindowPassed', 'finalized']] as const) {
      body = await eventOf(sub, about(offramp.id), customerId, () => simulate(offramp.id, action));
      expect(body).toEqual({ order_updated: await order(offramp.id) });
      expect(body.order_updated.status).toBe(status);
    }

    // Canceled before funding.
    const canceled = await create('onramp');
    body = await eventOf(sub, about(canceled.id), customerId, () => post(`/ramp/order/${canceled.id}/cancel`));
    expect(body).toEqual({ order_updated: await order(canceled.id) });
    expect(body.order_updated.status).toBe('canceled');

    await settled(sub);
    const statuses = (id: string) => arrivals(sub, about(id)).map((r) => r.body.order_updated.status);
    expect(statuses(onramp.id)).toEqual(['funded', 'completed']);
    expect(statuses(offramp.id)).toEqual(['funded', 'completed', 'finalized']);
    expect(statuses(canceled.id)).toEqual(['canceled']);
  });

  it('swap_updated: on every status change and the distinct funds-received update, never on creation, an expired or a regenerated transaction; the swap as its GET returns it', async () => {
    const sub = await subscribe('v1', 'swap_updated');
    const customerId = await approvedPerson();
    const wallet = await v1Wallet(customerId);
    const swap = await ok(post('/ramp/swap', { customerId, walletId: wallet.id, sourceToken: 'CETES', targetToken: 'USDC', sourceAmount: '50.000000' }), 201);
    const about = (body: Json) => body.swap_updated.id === swap.id;
    const simulate = (action: string) => post(`/sandbox/ramp/swap/${swap.id}/simulate`, { action });

    await ok(simulate('expireTransaction'), 200);
    await ok(post(`/ramp/swap/${swap.id}/regenerate_tx`), 200);
    const statuses: string[] = [];
    for (const [action, status] of [['sendConfirmed', 'funded'], ['fundsReceived', 'funded'], ['delivered', 'completed']] as const) {
      const body = await eventOf(sub, about, customerId, () => simulate(action));
      expect(body).toEqual({ swap_updated: await get(`/ramp/swap/${swap.id}`) });
      expect(body.swap_updated.status).toBe(status);
      statuses.push(status);
    }
    expect(arrivals(sub, about).at(-1)!.body.swap_updated).toMatchObject({ sendTransactionHash: expect.any(String), receiveTransactionHash: expect.any(String) });

    await settled(sub);
    expect(arrivals(sub, about).map((r) => r.body.swap_updated.status)).toEqual(statuses);
  });

  it('customer_updated: when the verification status changes, not on a submission; the customer as its GET returns it', async () => {
    const sub = await subscribe('v1', 'customer_updated');
    const verified = await customer('personal');
    const failed = await customer('personal');
    const about = (id: string) => (body: Json) => body.customer_updated.customerId === id;

    // A submission leaves the customer pending: nothing.
    await ok(post(`/ramp/customer/${verified}/kyc`, v1Person));
    let body = await eventOf(sub, about(verified), verified, () => post(`/sandbox/ramp/customer/${verified}/kyc`, { status: 'kyc_approved' }));
    expect(body).toEqual({ customer_updated: await get(`/ramp/customer/${verified}`) });
    expect(body.customer_updated.status).toBe('customer_verified');

    await ok(post(`/ramp/customer/${failed}/kyc`, v1Person));
    body = await eventOf(sub, about(failed), failed, () => post(`/sandbox/ramp/customer/${failed}/kyc`, { status: 'kyc_rejected', final: true, updateReason: 'The ID is not genuine' }));
    expect(body).toEqual({ customer_updated: await get(`/ramp/customer/${failed}`) });
    expect(body.customer_updated.status).toBe('customer_failed');

    await settled(sub);
    expect(arrivals(sub, about(verified)).map((r) => r.body.customer_updated.status)).toEqual(['customer_verified']);
    expect(arrivals(sub, about(failed)).map((r) => r.body.customer_updated.status)).toEqual(['customer_failed']);
  });

  it('kyc_updated: when a submission is reviewed (rejected, then approved), not when one is made; the KYC as its GET returns it, with the customerId', async () => {
    const sub = await subscribe('v1', 'kyc_updated');
    const id = await customer('personal');
    const about = (body: Json) => body.kyc_updated.customerId === id;
    const kyc = () => get(`/ramp/customer/${id}/kyc`);

    await ok(post(`/ramp/customer/${id}/kyc`, v1Person));
    const reason = 'The proof of address is older than three months';
    let body = await eventOf(sub, about, id, () => post(`/sandbox/ramp/customer/${id}/kyc`, { status: 'kyc_rejected', updateReason: reason }));
    expect(body).toEqual({ kyc_updated: { ...(await kyc()), customerId: id } });
    expect(body.kyc_updated).toEqual({ status: 'kyc_rejected', approved: false, updateReason: reason, needsWork: true, userMessage: expect.any(String), customerId: id });

    // Submitting again is not a review.
    await ok(post(`/ramp/customer/${id}/kyc`, { ...v1Person, address: { ...v1Person.address, postalCode: '06500' } }));
    body = await eventOf(sub, about, id, () => post(`/sandbox/ramp/customer/${id}/kyc`, { status: 'kyc_approved' }));
    expect(body).toEqual({ kyc_updated: { ...(await kyc()), customerId: id } });
    // On approval only status and approved (V1Kyc).
    expect(body.kyc_updated).toEqual({ status: 'kyc_approved', approved: true, customerId: id });

    await settled(sub);
    expect(arrivals(sub, about).map((r) => r.body.kyc_updated.status)).toEqual(['kyc_rejected', 'kyc_approved']);
  });

  it('kyb_updated: only on a real status change, not on an edit of the answers; the KYB as the v1 simulator and the v2 GET show it', async () => {
    const sub = await subscribe('v1', 'kyb_updated');
    const org = await customer('business');
    const about = (body: Json) => body.kyb_updated.organizationId === org;
    const v1Status: Record<string, string> = { notStarted: 'not_started', inProgress: 'awaiting_documents', submitted: 'awaiting_review', approved: 'approved', denied: 'denied' };
    /** The v1 payload agrees with the KYB's GET (v1 has no KYB read). */
    const agreesWithGet = async (entity: Json) => {
      const v2 = await get(`/organization/${org}/kyb`);
      expect(entity).toMatchObject({ organizationId: org, status: v1Status[v2.status], approvedAt: v2.approvedAt });
    };

    let simulated: Json;
    let body = await eventOf(sub, about, org, async () => {
      const response = await post(`/sandbox/ramp/organization/${org}/kyb`, { status: 'awaiting_documents' });
      simulated = response.json_;
      return response;
    });
    expect(body).toEqual({ kyb_updated: simulated });
    await agreesWithGet(body.kyb_updated);
    expect(body.kyb_updated.status).toBe('awaiting_documents');

    body = await eventOf(sub, about, org, () => server.call('PUT', `/organization/${org}/kyb`, { body: company }));
    await agreesWithGet(body.kyb_updated);
    expect(body.kyb_updated).toMatchObject({ status: 'awaiting_review', approvedAt: null });
    // An edited answer: no event.
    await ok(server.call('PUT', `/organization/${org}/kyb`, { body: { ...company, email: 'contabilidad@tacoselguero.example' } }), 200);

    body = await eventOf(sub, about, org, async () => {
      const response = await post(`/sandbox/ramp/organization/${org}/kyb`, { status: 'approved' });
      simulated = response.json_;
      return response;
    });
    expect(body).toEqual({ kyb_updated: simulated });
    await agreesWithGet(body.kyb_updated);
    expect(body.kyb_updated).toMatchObject({ status: 'approved', approvedAt: expect.any(String) });

    await settled(sub);
    expect(arrivals(sub, about).map((r) => r.body.kyb_updated.status)).toEqual(['awaiting_documents', 'awaiting_review', 'approved']);
  });

  it('bank_account_updated: when the verification status changes, not on registration nor on a change of compliant alone; the account as its GET returns it', async () => {
    const sub = await subscribe('v1', 'bank_account_updated');
    const customerId = await approvedPerson();
    const account = await ok(post('/ramp/bank-account', { customerId, clabe: newClabe(), currency: 'MXN' }), 201);
    const id = account.internalAccountId;
    expect(account.status).toBe('bank_account_pending');
    const about = (body: Json) => body.bank_account_updated.internalAccountId === id;
    const simulate = (body: object) => post(`/sandbox/ramp/bank-account/${id}/status`, body);

    let body = await eventOf(sub, about, customerId, () => simulate({ status: 'bank_account_awaiting_deposit_verification' }));
    expect(body).toEqual({ bank_account_updated: await get(`/ramp/bank-account/${id}`) });
    expect(body.bank_account_updated.status).toBe('bank_account_awaiting_deposit_verification');
    // compliant alone changes: no event.
    const flipped = await ok(simulate({ status: 'bank_account_awaiting_deposit_verification', compliant: !account.compliant }), 200);
    expect(flipped.compliant).toBe(!account.compliant);

    body = await eventOf(sub, about, customerId, () => simulate({ status: 'bank_account_active', compliant: true }));
    expect(body).toEqual({ bank_account_updated: await get(`/ramp/bank-account/${id}`) });
    expect(body.bank_account_updated).toMatchObject({ status: 'bank_account_active', compliant: true });

    await settled(sub);
    expect(arrivals(sub, about).map((r) => r.body.bank_account_updated.status)).toEqual(['bank_account_awaiting_deposit_verification', 'bank_account_active']);
  });
});
