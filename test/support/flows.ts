/**
 * The flows of the partner flow suite (flowSuite.ts), in the order it runs them: each a
 * partner's test of one flow of the service, through the typed client only, on a frozen
 * sandbox clock. Later flows use the customer, wallet and payment account the first ones made,
 * as a partner's suite builds its world once. Each id the flows get back is kept in `made`, so
 * a test can check afterwards that no other partner sees any of it.
 */
import assert from 'node:assert/strict';
import { RampError, RampProblem, verifyWebhook, type RampClient, type Schema } from '../../client/index.ts';
import type { Receiver } from './webhooks.ts';
import { expectStatus } from './api.ts';
import { customerClabe } from './fixtures.ts';
import { randomSolanaAddress } from './v1Money.ts';
import { eventually } from './wait.ts';

export interface FlowContext {
  api: RampClient;
  partnerId: string;
  receiver: Receiver;
  /** The receiver's path of this run's `orderUpdated` subscription, and its secret. */
  webhook: { path: string; secret: string };
  /** What the first flows made for the later ones. */
  world: { person?: string; wallet?: string; account?: Schema<'PaymentAccount'>; v1Wallet?: string };
  /** Every object the flows made, and every instant they moved the clock to. */
  made: Made;
}

/** The ids the flows got back from the service, by kind, in the order made. */
export interface Made {
  /** Customer organizations (`v1CreateOrganization`). */
  customers: string[];
  quotes: string[];
  /** v2 orders. */
  orders: string[];
  paymentAccounts: string[];
  v1Orders: string[];
  v1Swaps: string[];
  /** The events of the timelines the flows read from the event feed. */
  events: string[];
  /** Each instant an advance of the frozen clock answered, in order. */
  clockMoves: string[];
}

type Flow = (context: FlowContext) => Promise<void>;

// ---------------------------------------------------------------- what a partner's tests write once

const need = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`${what} was not made by an earlier flow`);
  return value;
};

/** The statuses of one object's events of one type, oldest first, from the event feed (`listSandboxEvents`). */
async function timeline({ api, made }: FlowContext, subjectId: string, eventType: string): Promise<string[]> {
  const page = expectStatus(await api.GET('/sandbox/events', { params: { query: { subjectId, pageSize: 100 } } }), 200);
  const events = page.items.filter((e) => e.eventType === eventType);
  made.events.push(...events.map((e) => e.eventId));
  return events.map((e) => statusIn(e));
}

/** The status an event's body carries: under its object's key (v2) or its type (v1, one key). */
function statusIn(event: Schema<'SandboxEvent'>): string {
  const key = event.surface === 'v1' ? event.eventType : ({ orderUpdated: 'order', kycUpdated: 'kyc', kybUpdated: 'kyb' } as Record<string, string>)[event.eventType];
  if (key) return String((event.body[key] as { status?: unknown } | undefined)?.status);
  // paymentAccountUpdated: the SPEI destination's readiness, what an offramp waits for.
  return String((event.body.paymentAccount as Schema<'PaymentAccount'>).rails.spei?.destination);
}

/** Moves the frozen clock `to` an instant (or to its next change due) and returns what the advance applied. */
async function advanceTo({ api, made }: FlowContext, to?: string): Promise<Schema<'SandboxClockAdvance'>> {
  const instant = to ?? expectStatus(await api.GET('/sandbox/clock'), 200).nextDueAt;
  assert.ok(instant, 'a change is due on the clock');
  const advanced = expectStatus(await api.POST('/sandbox/clock/advance', { body: { to: instant } }), 200);
  made.clockMoves.push(advanced.clock.now);
  return advanced;
}

const plus = (instant: string, ms: number) => new Date(Date.parse(instant) + ms).toISOString();

/** A customer of the partner (`v1CreateOrganization`). */
async function customer({ api, made }: FlowContext, type: 'personal' | 'business'): Promise<string> {
  const displayName = type === 'personal' ? 'María Gómez Martínez' : 'Tacos El Güero SA de CV';
  const { organizationId } = expectStatus(await api.POST('/ramp/organization', { body: { displayName, type } }), 201);
  made.customers.push(organizationId);
  return organizationId;
}

/** A quote and its order (`createQuote`, `createOrder`). */
async function order({ api, made }: FlowContext, organizationId: string, body: Schema<'QuoteRequest'>): Promise<Schema<'Order'>> {
  const params = { path: { organizationId } };
  const { quoteId } = expectStatus(await api.POST('/organization/{organizationId}/quote', { params, body }), 201);
  made.quotes.push(quoteId);
  const created = expectStatus(await api.POST('/organization/{organizationId}/order', { params, body: { quoteId } }), 201);
  made.orders.push(created.id);
  assert.equal(created.status, 'created');
  return created;
}

async function getOrder(api: RampClient, organizationId: string, id: string) {
  return expectStatus(await api.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId, id } } }), 200);
}

/** An order moved by the order simulator (`simulateOrder`), its new status checked. */
async function simulate(api: RampClient, organizationId: string, id: string, action: Schema<'SimulateOrderRequest'>['action'], status: Schema<'OrderStatus'>) {
  const moved = expectStatus(await api.POST('/sandbox/organization/{organizationId}/order/{id}/simulate', { params: { path: { organizationId, id } }, body: { action } }), 200);
  assert.equal(moved.status, status, `${action} moves the order to ${status}`);
}

/** Waits (one budget, test/support/wait.ts) for a verified `orderUpdated` delivery of this order in this status. */
async function orderWebhook(context: FlowContext, orderId: string, status: Schema<'OrderStatus'>) {
  return eventually(async () => {
    for (const delivery of context.receiver.to(context.webhook.path)) {
      const event = await verifyWebhook({ body: delivery.raw, signature: delivery.headers['x-signature'], secret: context.webhook.secret });
      if ('order' in event && event.order.id === orderId && event.order.status === status) return event;
    }
    return undefined;
  }, undefined, `a signed orderUpdated webhook of order ${orderId} (${status})`);
}

// ---------------------------------------------------------------- the flows

const kycDecisions: Flow = async (context) => {
  const { api, world } = context;
  const approved = await customer(context, 'personal');
  const kyc = expectStatus(await api.POST('/sandbox/organization/{organizationId}/kyc', { params: { path: { organizationId: approved } }, body: { status: 'approved' } }), 200);
  assert.equal(kyc.status, 'approved');
  assert.deepEqual(await timeline(context, approved, 'kycUpdated'), ['approved']);
  const denied = await customer(context, 'personal');
  expectStatus(await api.POST('/sandbox/organization/{organizationId}/kyc', { params: { path: { organizationId: denied } }, body: { status: 'denied' } }), 200);
  assert.equal(expectStatus(await api.GET('/organization/{organizationId}/kyc', { params: { path: { organizationId: denied } } }), 200).status, 'denied');
  assert.deepEqual(await timeline(context, denied, 'kycUpdated'), ['denied']);
  world.person = approved;
};

const kybDecision: Flow = async (context) => {
  const { api } = context;
  const business = await customer(context, 'business');
  const kyb = expectStatus(await api.POST('/sandbox/organization/{organizationId}/kyb', { params: { path: { organizationId: business } }, body: { status: 'approved' } }), 200);
  assert.equal(kyb.status, 'approved');
  assert.equal(expectStatus(await api.GET('/organization/{organizationId}/kyb', { params: { path: { organizationId: business } } }), 200).status, 'approved');
  assert.deepEqual(await timeline(context, business, 'kybUpdated'), ['approved']);
};

const paymentAccountReady: Flow = async (context) => {
  const { api, world, made } = context;
  const organizationId = need(world.person, 'an approved person');
  const params = { path: { organizationId } };
  const registered = expectStatus(await api.POST('/organization/{organizationId}/payment_account', {
    params,
    body: { kind: 'bankAccount', rail: 'spei', accountDetails: { clabe: customerClabe() }, registrationInfo: { accountHolderName: 'María Gómez Martínez', taxId: 'GOMM900101AB3' } },
  }), 201);
  made.paymentAccounts.push(registered.id);
  assert.notEqual(registered.rails.spei?.destination, 'ready', 'a new account is not ready before its rail verified it');
  // The rail's verification is the next change due on the frozen clock.
  const advanced = await advanceTo(context);
  assert.equal(advanced.counts.paymentAccountReady, 1);
  const account = expectStatus(await api.GET('/organization/{organizationId}/payment_account/{id}', { params: { path: { organizationId, id: registered.id } } }), 200);
  assert.equal(account.rails.spei?.destination, 'ready');
  assert.equal((await timeline(context, account.id, 'paymentAccountUpdated')).at(-1), 'ready');
  world.account = account;
  world.wallet = randomSolanaAddress();
  expectStatus(await api.POST('/organization/{organizationId}/wallet', { params, body: { custody: 'external', address: world.wallet, blockchain: 'solana' } }), 201);
};

const v2Onramp: Flow = async (context) => {
  const { api, world } = context;
  const organizationId = need(world.person, 'an approved person');
  const created = await order(context, organizationId, { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: need(world.wallet, 'a wallet') });
  assert.equal(created.fundingInstructions?.destination.type, 'spei');
  const funded = expectStatus(await api.POST('/sandbox/organization/{organizationId}/order/{id}/deposit', { params: { path: { organizationId, id: created.id } }, body: {} }), 200);
  assert.equal(funded.status, 'funded');
  // The completion falls due a moment after the deposit, on the partner's clock.
  assert.equal((await advanceTo(context)).counts.orderCompleted, 1);
  assert.equal((await getOrder(api, organizationId, created.id)).status, 'completed');
  assert.deepEqual(await timeline(context, created.id, 'orderUpdated'), ['funded', 'completed']);
  const delivered = await orderWebhook(context, created.id, 'completed');
  assert.deepEqual(delivered.order, await getOrder(api, organizationId, created.id));
};

/** A v2 order paid in tokens (an offramp or a swap): the chain's simulators fund and deliver it. */
const tokenFunded = (quote: (world: FlowContext['world']) => Schema<'QuoteRequest'>): Flow => async (context) => {
  const { api, world } = context;
  const organizationId = need(world.person, 'an approved person');
  const created = await order(context, organizationId, quote(world));
  assert.equal(created.fundingInstructions?.destination.type, 'blockchain');
  await simulate(api, organizationId, created.id, 'confirmSourceFunds', 'funded');
  await simulate(api, organizationId, created.id, 'deliver', 'completed');
  assert.equal((await getOrder(api, organizationId, created.id)).status, 'completed');
  assert.deepEqual(await timeline(context, created.id, 'orderUpdated'), ['funded', 'completed']);
};

const v2Offramp = tokenFunded((world) => ({
  type: 'offramp', sourceAsset: 'USDC', targetAsset: 'MXN', sourceAmount: '20', rail: 'spei',
  paymentAccountId: need(world.account, 'a ready payment account').id, walletAddress: need(world.wallet, 'a wallet'),
}));

const v2Swap = tokenFunded((world) => ({ type: 'swap', sourceAsset: 'USDC', targetAsset: 'CETES', sourceAmount: '20', walletAddress: need(world.wallet, 'a wallet') }));

const v1Onramp: Flow = async (context) => {
  const { api, world, made } = context;
  const customerId = need(world.person, 'an approved person');
  world.v1Wallet = expectStatus(await api.POST('/ramp/wallet', { body: { customerId, custody: 'external', blockchain: 'solana', address: randomSolanaAddress() } }), 201).id;
  const created = expectStatus(await api.POST('/ramp/order', { body: { customerId, type: 'onramp', sourceAmount: '250.00', walletId: world.v1Wallet, token: 'CETES' } }), 201);
  made.v1Orders.push(created.id);
  assert.equal(created.status, 'created');
  assert.ok(created.depositClabe, 'an onramp has a deposit CLABE');
  assert.equal(expectStatus(await api.POST('/ramp/order/fiat_received', { body: { orderId: created.id } }), 200).status, 'funded');
  // The tokens arrive a few seconds after the deposit, on the partner's clock.
  assert.equal((await advanceTo(context)).counts.v1TokensDelivered, 1);
  assert.equal(expectStatus(await api.GET('/ramp/order/{id}', { params: { path: { id: created.id } } }), 200).status, 'completed');
  assert.deepEqual(await timeline(context, created.id, 'order_updated'), ['funded', 'completed']);
};

const v1Offramp: Flow = async (context) => {
  const { api, world, made } = context;
  const customerId = need(world.person, 'an approved person');
  const bank = expectStatus(await api.POST('/ramp/bank-account', { body: { customerId, clabe: customerClabe(), currency: 'MXN' } }), 201);
  const path = { params: { path: { id: bank.internalAccountId } } };
  expectStatus(await api.POST('/sandbox/ramp/bank-account/{id}/status', { ...path, body: { status: 'bank_account_active', compliant: true } }), 200);
  const created = expectStatus(await api.POST('/ramp/order', {
    body: { customerId, type: 'offramp', sourceAmount: '100.000000', bankAccountId: bank.internalAccountId, walletId: need(world.v1Wallet, 'a v1 wallet'), token: 'CETES' },
  }), 201);
  made.v1Orders.push(created.id);
  const id = { params: { path: { id: created.id } } };
  assert.equal(expectStatus(await api.POST('/sandbox/ramp/order/{id}/simulate', { ...id, body: { action: 'burnConfirmed' } }), 200).status, 'funded');
  assert.equal(expectStatus(await api.POST('/sandbox/ramp/order/{id}/simulate', { ...id, body: { action: 'fiatSent' } }), 200).status, 'completed');
  // Finalized when its reversal window closes, on the partner's clock.
  assert.equal((await advanceTo(context)).counts.v1OfframpFinalized, 1);
  assert.equal(expectStatus(await api.GET('/ramp/order/{id}', id), 200).status, 'finalized');
  assert.deepEqual(await timeline(context, created.id, 'order_updated'), ['funded', 'completed', 'finalized']);
};

const v1Swap: Flow = async (context) => {
  const { api, world, made } = context;
  const customerId = need(world.person, 'an approved person');
  const created = expectStatus(await api.POST('/ramp/swap', { body: { customerId, walletId: need(world.v1Wallet, 'a v1 wallet'), sourceToken: 'CETES', targetToken: 'USDC', sourceAmount: '50.000000' } }), 201);
  made.v1Swaps.push(created.id);
  const id = { params: { path: { id: created.id } } };
  assert.equal(expectStatus(await api.POST('/sandbox/ramp/swap/{id}/simulate', { ...id, body: { action: 'sendConfirmed' } }), 200).status, 'funded');
  assert.equal(expectStatus(await api.POST('/sandbox/ramp/swap/{id}/simulate', { ...id, body: { action: 'delivered' } }), 200).status, 'completed');
  assert.equal(expectStatus(await api.GET('/ramp/swap/{id}', id), 200).status, 'completed');
  assert.deepEqual(await timeline(context, created.id, 'swap_updated'), ['funded', 'completed']);
};

const fundingDeadline: Flow = async (context) => {
  const { api, world } = context;
  const organizationId = need(world.person, 'an approved person');
  const created = await order(context, organizationId, { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '100.00', rail: 'spei', walletAddress: need(world.wallet, 'a wallet') });
  const deadline = need(created.fundingInstructions, 'funding instructions').expiresAt;
  assert.equal(deadline, plus(created.createdAt, 3_600_000), 'an unfunded order is canceled an hour after it was created');
  const advanced = await advanceTo(context, deadline);
  assert.equal(advanced.counts.orderFundingExpired, 1);
  const canceled = await getOrder(api, organizationId, created.id);
  assert.equal(canceled.status, 'canceled');
  assert.equal(canceled.updatedAt, deadline, 'canceled at the instant its deadline fell due');
  assert.deepEqual(await timeline(context, created.id, 'orderUpdated'), ['canceled']);
};

const quoteExpiry: Flow = async (context) => {
  const { api, world, made } = context;
  const organizationId = need(world.person, 'an approved person');
  const params = { path: { organizationId } };
  const quote = expectStatus(await api.POST('/organization/{organizationId}/quote', {
    params, body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '100.00', rail: 'spei', walletAddress: need(world.wallet, 'a wallet') },
  }), 201);
  made.quotes.push(quote.quoteId);
  assert.equal((await advanceTo(context, plus(quote.expiresAt, 1000))).counts.quoteExpired, 1);
  const { error, response } = await api.POST('/organization/{organizationId}/order', { params, body: { quoteId: quote.quoteId } });
  const refusal = RampError.from(error, response);
  assert.ok(refusal instanceof RampProblem && refusal.slug === 'quote-expired', `an expired quote is refused with quote-expired, not ${response.status}`);
};

/** Every flow, in the order the suite runs them. */
export const flows: Record<string, Flow> = {
  'KYC decisions (v2 simulator)': kycDecisions,
  'KYB decision (v2 simulator)': kybDecision,
  'payment account becomes ready': paymentAccountReady,
  'v2 onramp, signed webhook verified': v2Onramp,
  'v2 offramp': v2Offramp,
  'v2 swap': v2Swap,
  'v1 onramp': v1Onramp,
  'v1 offramp, finalized': v1Offramp,
  'v1 swap': v1Swap,
  '1-hour funding deadline': fundingDeadline,
  'quote expiry': quoteExpiry,
};
