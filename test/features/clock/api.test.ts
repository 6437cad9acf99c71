/**
 * The sandbox clock over HTTP (`GET|PUT /sandbox/clock`, `POST /sandbox/clock/advance`):
 * every timer of v1 and v2 driven by advancing a partner's clock, never by waiting. The
 * server's real time is a manual clock too, so "an hour of real time passed" is a line of
 * the test: a frozen partner is shown to stay still through it while another partner's
 * timers run, and webhook deliveries are shown to follow real time, not the partner's.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../../client/index.ts';
import { expectStatus } from '../../support/api.ts';
import { expectPlainError, expectProblem } from '../../support/errors.ts';
import { jwtBearer, Partner, requestToken } from '../../support/partner.ts';
import { person } from '../../support/verification.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createBankAccount, createWallet } from '../../support/v1Money.ts';
import { eventually } from '../../support/wait.ts';
import { startReceiver, type Receiver } from '../../support/webhooks.ts';
import {
  allEvents, createCustomer, customerClabe, keyedBusinessChild, manualClock, order as orderOf, otherPartner, quote as quoteOf, sandboxClock, solanaAddress,
  type EventType, type StoredEvent,
} from '../../support/fixtures.ts';

const real = manualClock({ distinctReadings: true });
let server: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver((path, count) => (path === '/flaky' && count === 1 ? 500 : 200));
  // Jobs poll rarely (each reading moves the manual clock by a millisecond); tick() runs them
  // when a test needs them, and a recorded event wakes the delivery worker at once.
  server = await startTestServer({
    clock: real,
    env: { RAMP_V1_DELIVERY_SECONDS: '2', RAMP_V1_REVERSAL_WINDOW_SECONDS: '30', RAMP_WEBHOOK_RETRY_DELAY_MS: '5000', RAMP_JOB_INTERVAL_MS: '1000', RAMP_WEBHOOK_POLL_MS: '200' },
  });
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

/** A partner of its own on the shared server: its key, its typed client, its clock, and the objects the tests make with it. */
async function newPartner() {
  const { key, partnerId } = await otherPartner(server);
  const api = server.as(key);
  const clock = sandboxClock(api);
  const advance = clock.advance;
  const freeze = () => clock.set({ frozen: true });
  /** An approved personal customer with an external wallet. */
  const customer = async () => {
    const id = await createCustomer(server, { approved: true, key });
    const wallet = solanaAddress();
    expectStatus(await api.POST('/organization/{organizationId}/wallet', { params: { path: { organizationId: id } }, body: { custody: 'external', address: wallet, blockchain: 'solana' } }), 201);
    return { id, wallet };
  };
  type Customer = Awaited<ReturnType<typeof customer>>;
  const onramp = (org: Customer): Schema<'QuoteRequest'> => ({ type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: org.wallet });
  const quote = (org: Customer) => quoteOf(server, org.id, onramp(org), api);
  const order = (org: Customer) => orderOf(server, org.id, onramp(org), api);
  /** A bank account registered and left to the rail's verification (`pending` until it falls due). */
  const account = async (organizationId: string) =>
    expectStatus(await api.POST('/organization/{organizationId}/payment_account', {
      params: { path: { organizationId } },
      body: { kind: 'bankAccount', rail: 'spei', accountDetails: { clabe: customerClabe() }, registrationInfo: { accountHolderName: 'María Gómez', taxId: 'GOMM900101AB3' } },
    }), 201);
  const getAccount = async (organizationId: string, id: string) =>
    expectStatus(await api.GET('/organization/{organizationId}/payment_account/{id}', { params: { path: { organizationId, id } } }), 200);
  const getOrder = async (organizationId: string, id: string) => expectStatus(await api.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId, id } } }), 200);
  const getV1Order = async (id: string) => expectStatus(await api.GET('/ramp/order/{id}', { params: { path: { id } } }), 200);
  /** A v1 customer (`v1CreateOrganization`). */
  const v1Customer = async (displayName: string) => expectStatus(await api.POST('/ramp/organization', { body: { displayName, type: 'personal' } }), 201);
  /** The partner's customers created between two instants (`v1SearchCustomers`). */
  const v1Customers = async (filters: Schema<'V1DateFilters'>) => expectStatus(await api.POST('/ramp/customers', { body: { filters } }), 200);
  return { key, partnerId, api, clock, advance, freeze, customer, quote, order, account, getAccount, getOrder, getV1Order, v1Customer, v1Customers };
}

/** The events of a partner of one type, oldest first by occurredAt, each its body as the contract types it. */
async function eventsOf<T extends EventType>(partnerId: string, type: T) {
  return (await allEvents(server)).filter((e): e is Extract<StoredEvent, { type: T }> => e.partnerId === partnerId && e.type === type);
}

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

describe('reading and setting the clock', () => {
  it('starts running on real time with nothing due, and freezes at its current instant', async () => {
    const p = await newPartner();
    const clock = await p.clock.read();
    expect(clock).toEqual({ organizationId: p.partnerId, now: expect.any(String), frozen: false, nextDueAt: null });
    expect(Math.abs(Date.parse(clock.now) - real.now().getTime())).toBeLessThan(1000);
    const frozen = await p.freeze();
    expect(frozen.frozen).toBe(true);
    real.advance(3_600_000);
    expect((await p.clock.read()).now).toBe(frozen.now);
    // Running again goes on from the frozen instant, not from real time.
    const running = await p.clock.set({ frozen: false });
    expect(running.frozen).toBe(false);
    expect(Date.parse(running.now) - Date.parse(frozen.now)).toBeLessThan(1000);
  });

  it('refuses what it cannot do, changing nothing: neither or both of by and to, no unit, over 366 days, backwards, a customer key', async () => {
    const p = await newPartner();
    const { now } = await p.freeze();
    const advance = (body: Schema<'AdvanceSandboxClockRequest'>) => p.api.POST('/sandbox/clock/advance', { body });
    expectProblem(await advance({}), 400, 'validation-error');
    expectProblem(await advance({ by: 'PT1S', to: now }), 400, 'validation-error');
    // A duration naming no unit matches the schema's pattern; years, months, hours with decimals and a sign do not (only sendRaw sends them).
    for (const by of ['P', 'PT']) expectProblem(await advance({ by }), 400, 'validation-error', by);
    for (const by of ['P1Y', 'P1M', 'PT1.5H', '-PT1S']) expectProblem(await server.sendRaw('POST', '/sandbox/clock/advance', { key: p.key, body: { by } }), 400, 'validation-error', by);
    expectProblem(await advance({ by: 'P367D' }), 400, 'validation-error');
    expectProblem(await advance({ to: plus(now, 367 * 86_400_000) }), 400, 'validation-error');
    expectProblem(await advance({ to: plus(now, -1) }), 409, 'conflict');
    expect((await p.clock.read()).now).toBe(now);
    // The longest advance is allowed.
    expect((await p.advance({ by: 'P366D' })).clock.now).toBe(plus(now, 366 * 86_400_000));
  });

  it('belongs to the partner: a business customer with a key reads it but cannot move it', async () => {
    const child = await keyedBusinessChild(server);
    const api = server.as(child.key);
    expect((await sandboxClock(api).read()).organizationId).toBe(server.partnerId);
    expectProblem(await api.PUT('/sandbox/clock', { body: { frozen: true } }), 403, 'forbidden');
    expectProblem(await api.POST('/sandbox/clock/advance', { body: { by: 'PT1S' } }), 403, 'forbidden');
  });
});

describe('a frozen clock', () => {
  it('holds every timer still through an hour of real time while another partner\'s run, and its objects show its time', async () => {
    const frozen = await newPartner();
    const running = await newPartner();
    const { now } = await frozen.freeze();
    const started = {} as Record<'frozen' | 'running', { account: Schema<'PaymentAccount'>; order: Schema<'Order'>; deposited: Schema<'Order'>; v1: Schema<'V1Order'> }>;
    for (const [name, p] of [['frozen', frozen], ['running', running]] as const) {
      const org = await p.customer();
      const account = await p.account(org.id);
      const order = await p.order(org);
      const deposited = await p.order(org);
      expectStatus(await p.api.POST('/sandbox/organization/{organizationId}/order/{id}/deposit', { params: { path: { organizationId: org.id, id: deposited.id } }, body: {} }), 200);
      const v1Customer = await createCustomer(server, { approved: true, key: p.key });
      const wallet = await createWallet(server, v1Customer, 'external', 'solana', p.key);
      const v1 = expectStatus(await p.api.POST('/ramp/order', { body: { customerId: v1Customer, type: 'onramp', sourceAmount: '250.00', walletId: wallet.id, token: 'CETES' } }), 201);
      expectStatus(await p.api.POST('/ramp/order/fiat_received', { body: { orderId: v1.id } }), 200);
      started[name] = { account, order, deposited, v1 };
    }
    // Everything of the frozen partner carries the frozen instant.
    expect(started.frozen.account.createdAt).toBe(now);
    expect(started.frozen.order.createdAt).toBe(now);
    expect(started.frozen.order.fundingInstructions?.expiresAt).toBe(plus(now, 3_600_000));

    real.advance(2 * 3_600_000);
    await server.jobs.tick();
    await server.jobs.tick();
    const status = async (p: typeof frozen, s: (typeof started)['frozen']) => ({
      account: (await p.getAccount(s.account.organizationId, s.account.id)).status,
      order: (await p.getOrder(s.order.organizationId, s.order.id)).status,
      deposited: (await p.getOrder(s.deposited.organizationId, s.deposited.id)).status,
      v1: (await p.getV1Order(s.v1.id)).status,
    });
    expect(await status(frozen, started.frozen)).toEqual({ account: 'pending', order: 'created', deposited: 'funded', v1: 'funded' });
    expect(await status(running, started.running)).toEqual({ account: 'ready', order: 'canceled', deposited: 'completed', v1: 'completed' });
    expect((await frozen.clock.read()).now).toBe(now);

    // Advancing applies them, in time order, each at its own instant.
    const advanced = await frozen.advance({ by: 'PT1H' });
    // Both quotes were ordered, so none is listed as expired; at one instant, in the order of the timers.
    expect(advanced.transitions.map((t) => [t.kind, t.id, t.dueAt])).toEqual([
      ['orderCompleted', started.frozen.deposited.id, plus(now, 1000)],
      ['paymentAccountReady', started.frozen.account.id, plus(now, 1000)],
      ['v1TokensDelivered', started.frozen.v1.id, plus(now, 2000)],
      ['orderFundingExpired', started.frozen.order.id, plus(now, 3_600_000)],
    ]);
    expect(await status(frozen, started.frozen)).toEqual({ account: 'ready', order: 'canceled', deposited: 'completed', v1: 'completed' });
  });
});

describe('advancing drives every timer, with each event at the instant it fell due', () => {
  it('an onramp: quote expiry, funding deadline, deposit and completion, each webhook with its occurredAt', async () => {
    const p = await newPartner();
    const subscription = expectStatus(await p.api.POST('/webhook_subscription', { body: { url: `${receiver.url}/orders-${p.partnerId}`, eventType: 'orderUpdated' } }), 201);
    expect(subscription.id).toEqual(expect.any(String));
    const { now: t0 } = await p.freeze();
    const org = await p.customer();

    // A quote is firm for 5 minutes: 5 minutes and a second later it is refused.
    const quote = await p.quote(org);
    expect(quote.expiresAt).toBe(plus(t0, 300_000));
    // Its expiry is the next change due: the advance below applies it (issue 34).
    expect((await p.clock.read()).nextDueAt).toBe(plus(t0, 300_000));
    const expired = await p.advance({ by: 'PT5M1S' });
    expect(expired.counts).toMatchObject({ quoteExpired: 1, orderFundingExpired: 0 });
    expect(expired.transitions).toEqual([{ kind: 'quoteExpired', id: quote.quoteId, organizationId: org.id, dueAt: plus(t0, 300_000) }]);
    expectProblem(await p.api.POST('/organization/{organizationId}/order', { params: { path: { organizationId: org.id } }, body: { quoteId: quote.quoteId } }), 400, 'quote-expired');

    // An unfunded order is canceled at its deadline, an hour after it was created.
    const t1 = plus(t0, 301_000);
    const unfunded = await p.order(org);
    expect(unfunded.createdAt).toBe(t1);
    const deadline = await p.advance({ to: plus(t1, 3_600_000) });
    expect(deadline.counts.orderFundingExpired).toBe(1);
    expect(deadline.clock).toMatchObject({ now: plus(t1, 3_600_000), frozen: true, nextDueAt: null });
    const canceled = await p.getOrder(org.id, unfunded.id);
    expect(canceled).toMatchObject({ status: 'canceled', updatedAt: plus(t1, 3_600_000) });

    // A deposit, then the completion a second later.
    await p.advance({ by: 'PT1S' });
    const t2 = plus(t1, 3_601_000);
    const paid = await p.order(org);
    const funded = expectStatus(await p.api.POST('/sandbox/organization/{organizationId}/order/{id}/deposit', { params: { path: { organizationId: org.id, id: paid.id } }, body: {} }), 200);
    expect(funded).toMatchObject({ status: 'funded', updatedAt: t2 });
    expect((await p.clock.read()).nextDueAt).toBe(plus(t2, 1000));
    const completed = await p.advance({ by: 'PT1S' });
    expect(completed.transitions).toEqual([{ kind: 'orderCompleted', id: paid.id, organizationId: org.id, dueAt: plus(t2, 1000) }]);

    const expected: [string, string, string][] = [
      [unfunded.id, 'canceled', plus(t1, 3_600_000)],
      [paid.id, 'funded', t2],
      [paid.id, 'completed', plus(t2, 1000)],
    ];
    // The customer's approval (a fixture, through the KYC simulator) records its own events before these.
    const recorded = (await eventsOf(p.partnerId, 'orderUpdated')).map((e) => [e.payload.order.id, e.payload.order.status, e.payload.occurredAt]);
    expect(recorded).toEqual(expected);
    // Delivered on real time, though the partner's clock is more than an hour ahead of it.
    await server.jobs.tick();
    const delivered = await eventually(() => {
      const bodies = receiver.events(`/orders-${p.partnerId}`, 'orderUpdated').map((body) => [body.order.id, body.order.status, body.occurredAt]);
      return bodies.length === expected.length && bodies;
    });
    expect(delivered.sort()).toEqual([...expected].sort());
  });

  it('a payment account becomes ready a second after registration, its event at that second', async () => {
    const p = await newPartner();
    const { now } = await p.freeze();
    const org = await p.customer();
    const account = await p.account(org.id);
    expect(account.rails.spei?.destination).toBe('pending');
    const advanced = await p.advance({ by: 'PT1S' });
    expect(advanced.counts.paymentAccountReady).toBe(1);
    const ready = await p.getAccount(org.id, account.id);
    expect(ready).toMatchObject({ status: 'ready', rails: { spei: { destination: 'ready' } }, updatedAt: plus(now, 1000) });
    const events = await eventsOf(p.partnerId, 'paymentAccountUpdated');
    expect(events.map((e) => e.occurredAt)).toEqual([plus(now, 1000)]);
  });

  it('v1: an onramp\'s tokens arrive and an offramp is finalized when its reversal window closes', async () => {
    const p = await newPartner();
    const { now } = await p.freeze();
    const customer = await createCustomer(server, { approved: true, key: p.key });
    const wallet = await createWallet(server, customer, 'external', 'solana', p.key);
    const bank = await createBankAccount(server, customer, { key: p.key });
    const onramp = expectStatus(await p.api.POST('/ramp/order', { body: { customerId: customer, type: 'onramp', sourceAmount: '250.00', walletId: wallet.id, token: 'CETES' } }), 201);
    const offramp = expectStatus(await p.api.POST('/ramp/order', {
      body: { customerId: customer, type: 'offramp', sourceAmount: '100.000000', bankAccountId: bank.internalAccountId, walletId: wallet.id, token: 'CETES' },
    }), 201);
    const simulate = async (action: Schema<'V1SimulateOrderRequest'>['action']) =>
      expectStatus(await p.api.POST('/sandbox/ramp/order/{id}/simulate', { params: { path: { id: offramp.id } }, body: { action } }), 200);
    // A tenth of a second between steps, so each event has its own instant.
    await simulate('burnConfirmed');
    await p.advance({ by: 'PT0.1S' });
    await simulate('fiatSent');
    await p.advance({ by: 'PT0.1S' });
    expectStatus(await p.api.POST('/ramp/order/fiat_received', { body: { orderId: onramp.id } }), 200);

    // Tokens two seconds after the deposit (RAMP_V1_DELIVERY_SECONDS), finality 30 s after the payout.
    const first = await p.advance({ to: plus(now, 2200) });
    expect(first.transitions).toEqual([{ kind: 'v1TokensDelivered', id: onramp.id, organizationId: customer, dueAt: plus(now, 2200) }]);
    expect(await p.getV1Order(offramp.id)).toMatchObject({ status: 'completed' });
    const second = await p.advance({ by: 'PT28S' });
    expect(second.transitions).toEqual([{ kind: 'v1OfframpFinalized', id: offramp.id, organizationId: customer, dueAt: plus(now, 30_100) }]);
    expect(await p.getV1Order(onramp.id)).toMatchObject({ status: 'completed', updatedAt: plus(now, 2200) });
    expect(await p.getV1Order(offramp.id)).toMatchObject({ status: 'finalized', updatedAt: plus(now, 30_100) });
    const events = await eventsOf(p.partnerId, 'order_updated');
    expect(events.map((e) => [e.payload.order_updated.id, e.payload.order_updated.status, e.occurredAt])).toEqual([
      [offramp.id, 'funded', now],
      [offramp.id, 'completed', plus(now, 100)],
      [onramp.id, 'funded', plus(now, 200)],
      [onramp.id, 'completed', plus(now, 2200)],
      [offramp.id, 'finalized', plus(now, 30_100)],
    ]);
  });

  it('v1 lists filter dates on the partner\'s clock', async () => {
    const p = await newPartner();
    await p.freeze();
    const { clock } = await p.advance({ by: 'P300D' });
    const customer = await p.v1Customer('Later customer');
    const page = await p.v1Customers({ fromDate: plus(clock.now, -1000), toDate: plus(clock.now, 1000) });
    expect(page.items.map((c) => [c.customerId, c.createdAt])).toEqual([[customer.organizationId, clock.now]]);
  });
});

describe('a frozen clock gives one instant to every call', () => {
  it('calls at one instant share their createdAt and their events\' occurredAt; the lists keep creation order', async () => {
    const p = await newPartner();
    const { now } = await p.freeze();
    const customers: string[] = [];
    for (const name of ['First', 'Second', 'Third']) customers.push((await p.v1Customer(name)).organizationId);
    const newest = expectStatus(await p.api.GET('/organizations', { params: { query: { pageSize: 3 } } }), 200);
    expect(newest.items.map((o) => [o.organizationId, o.createdAt])).toEqual([...customers].reverse().map((id) => [id, now]));
    // fromDate is exclusive, toDate inclusive (V1DateFilters): exactly the frozen instant.
    const atNow = await p.v1Customers({ fromDate: plus(now, -1), toDate: now });
    expect(atNow.items.map((c) => c.customerId)).toEqual(customers);
    const org = await p.customer();
    const orders: string[] = [];
    for (let i = 0; i < 3; i++) orders.push((await p.order(org)).id);
    const listed = expectStatus(await p.api.GET('/orders', { params: { query: { pageSize: 3 } } }), 200);
    expect(listed.items.map((o) => [o.id, o.createdAt])).toEqual([...orders].reverse().map((id) => [id, now]));
    // Three funding deadlines at one instant: three events at one occurredAt, in creation order.
    const { transitions } = await p.advance({ by: 'PT2H' });
    const expired = transitions.filter((t) => t.kind === 'orderFundingExpired');
    expect(expired.map((t) => t.id)).toEqual(orders);
    expect(new Set(expired.map((t) => t.dueAt)).size).toBe(1);
    const events = (await eventsOf(p.partnerId, 'orderUpdated')).filter((e) => e.payload.order.status !== 'created');
    expect(new Set(events.map((e) => e.occurredAt))).toEqual(new Set([expired[0]!.dueAt]));
  });
});

describe('clocks side by side', () => {
  it('a running clock with an offset has its timers applied by the jobs at real time plus the offset', async () => {
    const p = await newPartner();
    const { clock } = await p.advance({ by: 'P1D' });
    expect(clock.frozen).toBe(false);
    const org = await p.customer();
    const account = await p.account(org.id);
    expect(Date.parse(account.createdAt) - real.now().getTime()).toBeGreaterThan(86_000_000);
    await server.jobs.tick();
    expect((await p.getAccount(org.id, account.id)).status).toBe('pending');
    real.advance(1500);
    await server.jobs.tick();
    expect((await p.getAccount(org.id, account.id)).status).toBe('ready');
  });

  it('two partners\' clocks are independent', async () => {
    const a = await newPartner();
    const b = await newPartner();
    const { now: bNow } = await b.freeze();
    const { now: aNow } = await a.freeze();
    await a.advance({ by: 'P30D' });
    expect((await a.clock.read()).now).toBe(plus(aNow, 30 * 86_400_000));
    expect((await b.clock.read()).now).toBe(bNow);
    const bOrg = await b.customer();
    const bAccount = await b.account(bOrg.id);
    expect(bAccount.createdAt).toBe(bNow);
    await a.advance({ by: 'P30D' });
    expect((await b.getAccount(bOrg.id, bAccount.id)).status).toBe('pending');
  });

  it('concurrent advances apply each change once, in order, and leave the clock at the farthest', async () => {
    const p = await newPartner();
    const { now } = await p.freeze();
    const org = await p.customer();
    const accounts: Schema<'PaymentAccount'>[] = [];
    for (let i = 0; i < 6; i++) {
      accounts.push(await p.account(org.id));
      await p.advance({ by: 'PT0.1S' });
    }
    // One `to` for all: a call that starts after another ended would count a `by` from the
    // later instant, and find an earlier `to` in the clock's past (409).
    const answers = await Promise.all([1, 2, 3, 4].map(() => p.advance({ to: plus(now, 3600) })));
    const applied = answers.flatMap((a) => a.transitions.map((t) => t.id));
    expect(applied.sort()).toEqual(accounts.map((a) => a.id).sort());
    const events = await eventsOf(p.partnerId, 'paymentAccountUpdated');
    expect(events.map((e) => e.payload.paymentAccount.id)).toEqual(accounts.map((a) => a.id));
    expect(events.map((e) => e.occurredAt)).toEqual(accounts.map((_, i) => plus(now, 1000 + i * 100)));
    expect((await p.clock.read()).now).toBe(plus(now, 3600));
  });

  it('advancing while a delivery waits for its retry changes nothing of the delivery: its retry follows real time', async () => {
    const p = await newPartner();
    const subscription = expectStatus(await p.api.POST('/webhook_subscription', { body: { url: `${receiver.url}/flaky`, eventType: 'paymentAccountUpdated' } }), 201);
    await p.freeze();
    const org = await p.customer();
    await p.account(org.id);
    const { transitions } = await p.advance({ by: 'PT1S' });
    await server.jobs.tick();
    await eventually(() => receiver.to('/flaky').length === 1);
    const deliveries = async () => expectStatus(await p.api.GET('/webhook_subscription/{id}/deliveries', { params: { path: { id: subscription.id } } }), 200).items;
    await eventually(async () => (await deliveries())[0]?.attempts[0]?.statusCode === 500);
    await p.advance({ by: 'P1D' });
    await server.jobs.tick();
    expect(receiver.to('/flaky')).toHaveLength(1);
    expect((await deliveries())[0]).toMatchObject({ status: 'pending' });
    real.advance(5000);
    await server.jobs.tick();
    await eventually(() => receiver.to('/flaky').length === 2);
    const [first, second] = receiver.events('/flaky', 'paymentAccountUpdated');
    expect(second).toEqual(first);
    expect(second!.occurredAt).toBe(transitions[0]!.dueAt);
    await eventually(async () => (await deliveries())[0]?.status === 'delivered');
  });
});

describe('what is done for a partner without its key follows its clock', () => {
  it('a customer created at its first sign-in (/auth/token) is created on the partner\'s clock, in its place in the lists; the tokens stay on real time', async () => {
    const p = await newPartner();
    const signer = await Partner.create(server, p.key);
    await signer.register();
    await p.freeze();
    const before = await p.v1Customer('Signed up before');
    const { clock } = await p.advance({ by: 'P30D' });
    const sub = randomUUID();
    // The JWT is signed on real time (iat, exp), 30 days behind the partner's clock, and accepted.
    const signedIn = expectStatus(await requestToken(server, { grant_type: jwtBearer, assertion: await signer.sign({ sub }) }), 200);
    expect(signedIn.expires_in).toBe(900);
    expect(expectStatus(await p.api.GET('/organization/{organizationId}', { params: { path: { organizationId: sub } } }), 200).createdAt).toBe(clock.now);
    const newest = expectStatus(await p.api.GET('/organizations', { params: { query: { pageSize: 2 } } }), 200);
    expect(newest.items.map((o) => [o.organizationId, o.createdAt])).toEqual([[sub, clock.now], [before.organizationId, before.createdAt]]);
    const later = await p.v1Customers({ fromDate: plus(clock.now, -1000) });
    expect(later.items.map((c) => c.customerId)).toEqual([sub]);
  });

  it('a v1 presigned onboarding URL expires on the clock it was issued on, though it is redeemed without a key', async () => {
    const p = await newPartner();
    const customer = await p.v1Customer('Onboarding customer');
    const { now } = await p.freeze();
    const { presignedUrl, expiresAt } = expectStatus(await p.api.POST('/sandbox/ramp/customer/{customer_id}/onboarding', { params: { path: { customer_id: customer.organizationId } } }), 201);
    expect(expiresAt).toBe(plus(now, 3600_000 - (Date.parse(now) % 1000)));
    const redeem = () => server.as(null).POST('/ramp/onboarding/bank-accounts', { body: { presignedUrl } });
    real.advance(2 * 3600_000);
    expectStatus(await redeem(), 200);
    await p.advance({ to: plus(expiresAt, -1) });
    expectStatus(await redeem(), 200);
    await p.advance({ to: expiresAt });
    expectPlainError(await redeem(), 401);
  });
});

describe('what a partner sees of its keys follows its clock', () => {
  it('an API key\'s lastUsedAt is the partner\'s time of its last use', async () => {
    const p = await newPartner();
    await p.freeze();
    const { clock } = await p.advance({ by: 'P2D' });
    const keys = async () => expectStatus(await p.api.GET('/organization/{organizationId}/api_keys', { params: { path: { organizationId: p.partnerId } } }), 200).items;
    expect((await keys()).map((k) => k.lastUsedAt)).toEqual([clock.now]);
    // Frozen: a later use an hour of real time on shows the same instant.
    real.advance(3600_000);
    expect((await keys())[0]!.lastUsedAt).toBe(clock.now);
  });
});

describe('a refused submission is judged on the caller\'s clock', () => {
  it('a KYC body the contract refuses is judged on the partner\'s clock, as the handler judges one it lets through', async () => {
    const p = await newPartner();
    await p.freeze();
    const { clock } = await p.advance({ by: 'P2D' });
    const customer = await p.v1Customer('Young customer');
    // 18 today on the partner's clock; two days short of it on real time.
    const birthDate = `${Number(clock.now.slice(0, 4)) - 18}${clock.now.slice(4, 10)}`;
    // A field KycRequest does not have: only sendRaw sends it.
    const refused = await server.sendRaw('PUT', `/organization/${customer.organizationId}/kyc`, { key: p.key, body: { ...person, birthDate, nickname: 'Mari' } });
    expect(expectProblem(refused, 400, 'validation-error').errors).toEqual([{ pointer: '/nickname', detail: 'is not allowed' }]);
    expectStatus(await p.api.PUT('/organization/{organizationId}/kyc', { params: { path: { organizationId: customer.organizationId } }, body: { ...person, birthDate } }), 200);
  });
});

describe('what is global stays on real time', () => {
  it('prices: a partner\'s clock moved past the feed\'s warm-up does not warm it up for its quotes', async () => {
    const cold = manualClock({ distinctReadings: true });
    const s = await startTestServer({ clock: cold, env: { RAMP_PRICES_WARMUP_MS: '60000' } });
    try {
      await sandboxClock(s.api).advance({ by: 'PT2M' });
      const customer = expectStatus(await s.api.POST('/ramp/organization', { body: { displayName: 'Early customer', type: 'personal' } }), 201).organizationId;
      await s.services.storage.db.updateTable('organizations').set({ kyc_status: 'approved' }).where('id', '=', customer).execute();
      const wallet = solanaAddress();
      const organizationId = { params: { path: { organizationId: customer } } };
      expectStatus(await s.api.POST('/organization/{organizationId}/wallet', { ...organizationId, body: { custody: 'external', address: wallet, blockchain: 'solana' } }), 201);
      const quote = () => s.api.POST('/organization/{organizationId}/quote', { ...organizationId, body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: wallet } });
      const prices = () => s.as(null).GET('/lookup/tokens/cost');
      expectProblem(await quote(), 422, 'quote-unavailable');
      expectPlainError(await prices(), 503);
      cold.advance(60_000);
      expectStatus(await prices(), 200);
      expectStatus(await quote(), 201);
    } finally {
      await s.close();
    }
  });
});

describe('production', () => {
  it('answers 403 forbidden to every clock operation', async () => {
    const production = await startTestServer({ env: { RAMP_ENV: 'production' } });
    try {
      expectProblem(await production.api.GET('/sandbox/clock'), 403, 'forbidden');
      expectProblem(await production.api.PUT('/sandbox/clock', { body: { frozen: true } }), 403, 'forbidden');
      expectProblem(await production.api.POST('/sandbox/clock/advance', { body: { by: 'PT1S' } }), 403, 'forbidden');
    } finally {
      await production.close();
    }
  });
});
