/**
 * v2 orders end to end over HTTP: an onramp, an offramp (external and embedded wallet) and a
 * swap, each through success and every failure branch, watching the statuses and the
 * `orderUpdated` events written to the outbox (each equal to the order's GET at that time).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../../client/index.ts';
import { clabeProblem } from '../../../server/shared/clabe.ts';
import { expectStatus, type RequestBody } from '../../support/api.ts';
import { expectDocumentedDetail, expectProblem } from '../../support/errors.ts';
import { signerKeys } from '../../support/money.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { approve, createCustomer, manualClock, orderEvents, quote, readyAccount, solanaAddress } from '../../support/fixtures.ts';

type Order = Schema<'Order'>;
type QuoteRequest = RequestBody<'createQuote'>;
type Simulation = RequestBody<'simulateOrder'>;

/** The deposit CLABE of an onramp's funding instructions (`SpeiFundingDestination`). */
function depositClabe(order: Order): string {
  const destination = order.fundingInstructions?.destination;
  if (destination?.type !== 'spei' || destination.clabe === undefined) throw new Error(`order ${order.id} has no SPEI funding instructions`);
  return destination.clabe;
}

/** The pending authorization of an embedded-wallet order (`OrderAuthorization`). */
function authorizationOf(order: Order): Schema<'OrderAuthorization'> {
  if (!order.authorization) throw new Error(`order ${order.id} has no pending authorization`);
  return order.authorization;
}

class Harness {
  readonly clock = manualClock({ distinctReadings: true });
  server!: TestServer;
  org = '';
  readonly externalWallet = solanaAddress();
  readonly embeddedWallet = solanaAddress();
  readonly keys = signerKeys();
  account!: Schema<'PaymentAccount'>;

  async start(options: { stopJobs?: boolean; env?: Record<string, string> } = {}) {
    this.server = await startTestServer({ clock: this.clock, ...(options.env ? { env: options.env } : {}) });
    if (options.stopJobs) await this.server.jobs.stop();
    this.org = this.server.partnerId;
    await this.wallet({ custody: 'external', address: this.externalWallet, blockchain: 'solana' });
    await this.wallet({ custody: 'embedded', address: this.embeddedWallet, blockchain: 'solana', signerPublicKey: this.keys.publicKey });
    // Production has no rail simulator; its tests need no payment account.
    if (options.env?.RAMP_ENV !== 'production') this.account = await readyAccount(this.server, this.org);
  }

  async wallet(body: RequestBody<'createWallet'>) {
    return expectStatus(await this.server.api.POST('/organization/{organizationId}/wallet', { params: { path: { organizationId: this.org } }, body }), 201);
  }

  quoteBody(type: QuoteRequest['type'], options: { wallet?: string; amount?: string } = {}): QuoteRequest {
    const walletAddress = options.wallet ?? this.externalWallet;
    if (type === 'onramp') return { type, sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: options.amount ?? '200.00', rail: 'spei', walletAddress };
    if (type === 'offramp') return { type, sourceAsset: 'USDC', targetAsset: 'MXN', sourceAmount: options.amount ?? '20', rail: 'spei', paymentAccountId: this.account.id, walletAddress };
    return { type, sourceAsset: 'USDC', targetAsset: 'CETES', sourceAmount: options.amount ?? '20', walletAddress };
  }

  quote(type: QuoteRequest['type'], options: { wallet?: string; amount?: string; org?: string } = {}) {
    return quote(this.server, options.org ?? this.org, this.quoteBody(type, options));
  }

  create(quoteId: string, org = this.org) {
    return this.server.api.POST('/organization/{organizationId}/order', { params: { path: { organizationId: org } }, body: { quoteId } });
  }

  async order(type: QuoteRequest['type'], options: { wallet?: string; amount?: string; org?: string } = {}): Promise<Order> {
    const { quoteId } = await this.quote(type, options);
    return expectStatus(await this.create(quoteId, options.org), 201);
  }

  async get(id: string, org = this.org): Promise<Order> {
    return expectStatus(await this.server.api.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId: org, id } } }), 200);
  }

  cancel(id: string, org = this.org) {
    return this.server.api.POST('/organization/{organizationId}/order/{id}/cancel', { params: { path: { organizationId: org, id } } });
  }

  claim(id: string, org = this.org) {
    return this.server.api.POST('/organization/{organizationId}/order/{id}/claim', { params: { path: { organizationId: org, id } } });
  }

  authorize(id: string, body: RequestBody<'authorizeOrder'>, org = this.org) {
    return this.server.api.POST('/organization/{organizationId}/order/{id}/authorization', { params: { path: { organizationId: org, id } }, body });
  }

  simulate(id: string, body: Simulation, org = this.org) {
    return this.server.api.POST('/sandbox/organization/{organizationId}/order/{id}/simulate', { params: { path: { organizationId: org, id } }, body });
  }

  /** The simulator's answer after asserting it succeeded: the order as it now is. */
  async simulated(id: string, body: Simulation, org = this.org): Promise<Order> {
    return expectStatus(await this.simulate(id, body, org), 200);
  }

  deposit(id: string, body?: RequestBody<'simulateDeposit'>, org = this.org) {
    return this.server.api.POST('/sandbox/organization/{organizationId}/order/{id}/deposit', { params: { path: { organizationId: org, id } }, ...(body === undefined ? {} : { body }) });
  }

  /** The order now, after asserting its status history and that the last event carries it exactly. */
  async history(id: string, statuses: Order['status'][], org = this.org): Promise<Order> {
    const order = await this.get(id, org);
    const sent = await orderEvents(this.server, id);
    expect(sent.map((e) => e.order.status)).toEqual(statuses);
    for (const e of sent) expect(e).toMatchObject({ event: 'orderUpdated', eventId: expect.any(String), occurredAt: expect.any(String) });
    if (sent.length > 0) expect(sent.at(-1)!.order).toEqual(order);
    return order;
  }
}

const harness = () => new Harness();

describe('onramp orders', () => {
  const h = harness();
  beforeAll(() => h.start());
  afterAll(() => h.server.close());

  it('go created → funded → completed on their own after the deposit, with a deposit CLABE and an event per change', async () => {
    const quote = await h.quote('onramp');
    const order = expectStatus(await h.create(quote.quoteId), 201);
    expect(order).toMatchObject({
      status: 'created', organizationId: h.org, quoteId: quote.quoteId, type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC',
      sourceAmount: quote.sourceAmount, targetAmount: quote.targetAmount, walletAddress: h.externalWallet,
      fundingInstructions: { destination: { type: 'spei', bankName: 'STP' }, amount: quote.sourceAmount, asset: 'MXN' },
    });
    expect(clabeProblem(depositClabe(order))).toBeUndefined();
    expect(order.authorization).toBeUndefined();
    expect(order.failure).toBeUndefined();
    expect(await h.get(order.id)).toEqual(order);
    // Creating sends no event.
    await h.history(order.id, []);

    const funded = expectStatus(await h.deposit(order.id), 200);
    expect(funded.status).toBe('funded');
    await h.history(order.id, ['funded']);
    // Delivery takes the service a moment: not yet.
    await h.server.jobs.tick();
    expect((await h.get(order.id)).status).toBe('funded');
    h.clock.advance(2000);
    await h.server.jobs.tick();
    const completed = await h.history(order.id, ['funded', 'completed']);
    expect(completed.status).toBe('completed');
    expect(completed.fundingInstructions).toEqual(order.fundingInstructions);
    // A second deposit is refused and changes nothing.
    expectProblem(await h.deposit(order.id), 409, 'conflict');
    await h.history(order.id, ['funded', 'completed']);
  });

  it('return the same order on a retry with the same quote (200), even after the quote expired, and list it once', async () => {
    const total = async () => expectStatus(await h.server.api.GET('/orders'), 200).totalItems;
    const before = await total();
    const quote = await h.quote('onramp');
    const first = expectStatus(await h.create(quote.quoteId), 201);
    expect(expectStatus(await h.create(quote.quoteId), 200)).toEqual(first);
    h.clock.advance(10 * 60_000);
    expect(expectStatus(await h.create(quote.quoteId), 200)).toEqual(first);
    // The retry's insert was refused, and its counting with it.
    expect(await total()).toBe(before + 1);
  });

  it('refund a deposit of another amount (created → refunded)', async () => {
    const order = await h.order('onramp', { amount: '200.00' });
    expect(expectStatus(await h.deposit(order.id, { amount: '150' }), 200).status).toBe('refunded');
    await h.history(order.id, ['refunded']);
    h.clock.advance(2000);
    await h.server.jobs.tick();
    await h.history(order.id, ['refunded']);
  });

  it('take the quoted amount written differently as the quoted amount', async () => {
    const order = await h.order('onramp', { amount: '200.00' });
    expect(expectStatus(await h.deposit(order.id, { amount: '200', autoComplete: false }), 200).status).toBe('funded');
  });

  it('fail from created with a code and message', async () => {
    const order = await h.order('onramp');
    const failed = await h.simulated(order.id, { action: 'fail', failure: { code: 'payoutRejected', message: 'The bank rejected it.' } });
    expect(failed).toMatchObject({ status: 'failed', failure: { code: 'payoutRejected', message: 'The bank rejected it.' } });
    await h.history(order.id, ['failed']);
  });

  it('fail from funded (the default failure), when kept funded', async () => {
    const order = await h.order('onramp');
    expect(expectStatus(await h.deposit(order.id, { autoComplete: false }), 200).status).toBe('funded');
    h.clock.advance(2000);
    await h.server.jobs.tick();
    expect((await h.get(order.id)).status).toBe('funded');
    const failed = await h.simulated(order.id, { action: 'fail' });
    expect(failed.failure).toEqual({ code: 'simulatedFailure', message: 'Failed by the sandbox simulator.' });
    await h.history(order.id, ['funded', 'failed']);
  });

  it('refund from funded', async () => {
    const order = await h.order('onramp');
    expectStatus(await h.deposit(order.id, { autoComplete: false }), 200);
    expect((await h.simulated(order.id, { action: 'refund' })).status).toBe('refunded');
    await h.history(order.id, ['funded', 'refunded']);
  });

  it('become claimable, prepare the same claim until it expires, and complete when claimed', async () => {
    const order = await h.order('onramp');
    expectProblem(await h.claim(order.id), 409, 'order-not-claimable');
    expectStatus(await h.deposit(order.id, { autoComplete: false }), 200);
    expectProblem(await h.claim(order.id), 409, 'order-not-claimable');
    expect((await h.simulated(order.id, { action: 'makeClaimable' })).status).toBe('claimable');
    const claim = expectStatus(await h.claim(order.id), 200);
    expect(claim).toMatchObject({ orderId: order.id, blockchain: 'solana', claimId: expect.any(String), transaction: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) });
    expect(expectStatus(await h.claim(order.id), 200)).toEqual(claim);
    h.clock.advance(11 * 60_000);
    const fresh = expectStatus(await h.claim(order.id), 200);
    expect(fresh.claimId).not.toBe(claim.claimId);
    // Preparing a claim is no status change: no event.
    await h.history(order.id, ['funded', 'claimable']);
    expect((await h.simulated(order.id, { action: 'completeClaim' })).status).toBe('completed');
    await h.history(order.id, ['funded', 'claimable', 'completed']);
    expectDocumentedDetail(expectProblem(await h.claim(order.id), 409, 'order-not-claimable'));
  });

  it('fail from claimable', async () => {
    const order = await h.order('onramp');
    expectStatus(await h.deposit(order.id, { autoComplete: false }), 200);
    await h.simulated(order.id, { action: 'makeClaimable' });
    expect((await h.simulated(order.id, { action: 'fail', failure: { code: 'claimExpired', message: 'Never claimed.' } })).status).toBe('failed');
    await h.history(order.id, ['funded', 'claimable', 'failed']);
  });

  it('cancel only before funding; a second cancel returns the canceled order unchanged', async () => {
    const order = await h.order('onramp');
    const canceled = expectStatus(await h.cancel(order.id), 200);
    expect(canceled.status).toBe('canceled');
    expect(expectStatus(await h.cancel(order.id), 200)).toEqual(canceled);
    await h.history(order.id, ['canceled']);
    expectProblem(await h.deposit(order.id), 409, 'conflict');

    const funded = await h.order('onramp');
    expectStatus(await h.deposit(funded.id, { autoComplete: false }), 200);
    expectDocumentedDetail(expectProblem(await h.cancel(funded.id), 409, 'order-not-cancelable'));
    await h.history(funded.id, ['funded']);
  });

  it('are canceled when the funding deadline passes (simulated, and on their own)', async () => {
    const simulated = await h.order('onramp');
    expect((await h.simulated(simulated.id, { action: 'expireFunding' })).status).toBe('canceled');
    await h.history(simulated.id, ['canceled']);

    const waiting = await h.order('onramp');
    h.clock.advance(59 * 60_000);
    await h.server.jobs.tick();
    expect((await h.get(waiting.id)).status).toBe('created');
    h.clock.advance(2 * 60_000);
    await h.server.jobs.tick();
    await h.history(waiting.id, ['canceled']);
  });

  it('replace their funding instructions with an event, while created', async () => {
    const order = await h.order('onramp');
    const replaced = await h.simulated(order.id, { action: 'replaceFundingInstructions' });
    expect(replaced.status).toBe('created');
    expect(depositClabe(replaced)).not.toBe(depositClabe(order));
    expect(clabeProblem(depositClabe(replaced))).toBeUndefined();
    const now = await h.history(order.id, ['created']);
    expect(now.fundingInstructions).toEqual(replaced.fundingInstructions);
    expectStatus(await h.deposit(order.id, { autoComplete: false }), 200);
    expectProblem(await h.simulate(order.id, { action: 'replaceFundingInstructions' }), 409, 'conflict');
  });

  it('refuse illegal simulator moves (conflict) and malformed ones, changing nothing', async () => {
    const order = await h.order('onramp');
    for (const action of ['deliver', 'makeClaimable', 'completeClaim', 'refund', 'confirmSourceFunds'] as const) {
      expectProblem(await h.simulate(order.id, { action }), 409, 'conflict');
    }
    const misplaced = expectProblem(await h.simulate(order.id, { action: 'deliver', failure: { code: 'x', message: 'y' } }), 400, 'validation-error');
    expect(misplaced.errors).toEqual([{ pointer: '/failure', detail: 'is allowed only with the fail action' }]);
    // An action the contract's enum does not hold.
    expectProblem(await h.server.sendRaw('POST', `/sandbox/organization/${h.org}/order/${order.id}/simulate`, { body: { action: 'teleport' } }), 400, 'invalid-request');
    expectProblem(await h.deposit(order.id, { amount: '0' }), 400, 'invalid-request');
    expect(await h.history(order.id, [])).toEqual(order);
  });
});

describe('offramp orders', () => {
  const h = harness();
  beforeAll(() => h.start());
  afterAll(() => h.server.close());

  it('from an external wallet: token funding instructions, then confirmSourceFunds → funded → deliver → completed', async () => {
    const order = await h.order('offramp');
    expect(order).toMatchObject({ status: 'created', type: 'offramp', paymentAccountId: h.account.id, walletAddress: h.externalWallet });
    expect(order.fundingInstructions).toMatchObject({ destination: { type: 'blockchain', blockchain: 'solana', address: expect.any(String) }, amount: order.sourceAmount, asset: 'USDC' });
    expect(order.authorization).toBeUndefined();
    // Its source is tokens: no fiat deposit, and nothing to authorize.
    expectDocumentedDetail(expectProblem(await h.deposit(order.id), 422, 'unsupported'));
    expectProblem(await h.authorize(order.id, { authorizationId: crypto.randomUUID(), signature: 'ab' }), 409, 'authorization-not-required');
    expect((await h.simulated(order.id, { action: 'confirmSourceFunds' })).status).toBe('funded');
    // Offramps are paid out by the simulator, not on their own.
    h.clock.advance(5000);
    await h.server.jobs.tick();
    expect((await h.simulated(order.id, { action: 'deliver' })).status).toBe('completed');
    await h.history(order.id, ['funded', 'completed']);
  });

  it('from an external wallet: fail when the payout is rejected, refund, cancel', async () => {
    const failing = await h.order('offramp');
    await h.simulated(failing.id, { action: 'confirmSourceFunds' });
    const failed = await h.simulated(failing.id, { action: 'fail', failure: { code: 'payoutRejected', message: 'The receiving bank rejected the SPEI transfer.' } });
    expect(failed.failure?.code).toBe('payoutRejected');
    await h.history(failing.id, ['funded', 'failed']);

    const refunding = await h.order('offramp');
    await h.simulated(refunding.id, { action: 'confirmSourceFunds' });
    await h.simulated(refunding.id, { action: 'refund' });
    await h.history(refunding.id, ['funded', 'refunded']);

    const canceling = await h.order('offramp');
    expectStatus(await h.cancel(canceling.id), 200);
    await h.history(canceling.id, ['canceled']);
  });

  it('from an embedded wallet: a pending authorization and no funding instructions; a DER signature funds it', async () => {
    const order = await h.order('offramp', { wallet: h.embeddedWallet });
    expect(order.fundingInstructions).toBeUndefined();
    expect(order.authorization).toEqual({ id: expect.any(String), method: { message: expect.stringContaining(order.id) }, expiresAt: expect.any(String) });
    const authorization = authorizationOf(order);
    const { message } = authorization.method;
    expect(message).toContain(h.account.accountDetails.clabe);
    const sign = (signature: string, authorizationId = authorization.id) => h.authorize(order.id, { authorizationId, signature });

    expectDocumentedDetail(expectProblem(await sign(h.keys.der(message), crypto.randomUUID()), 409, 'authorization-expired'));
    expectProblem(await sign('not hex at all'), 400, 'invalid-signature');
    expectProblem(await sign(h.keys.der(`${message} `)), 400, 'invalid-signature');
    expectDocumentedDetail(expectProblem(await sign(signerKeys().der(message)), 400, 'invalid-signature'));
    expectProblem(await h.simulate(order.id, { action: 'confirmSourceFunds' }), 409, 'conflict');
    expect(await h.history(order.id, [])).toEqual(order);

    const authorized = expectStatus(await sign(h.keys.der(message)), 200);
    expect(authorized.status).toBe('funded');
    expect(authorized.authorization).toBeUndefined();
    await h.history(order.id, ['funded']);
    expectDocumentedDetail(expectProblem(await sign(h.keys.der(message)), 409, 'authorization-not-required'));
    expect((await h.simulated(order.id, { action: 'deliver' })).status).toBe('completed');
    await h.history(order.id, ['funded', 'completed']);
  });

  it('from an embedded wallet with a compressed key: an r||s signature funds it too', async () => {
    const keys = signerKeys();
    const wallet = solanaAddress();
    await h.wallet({ custody: 'embedded', address: wallet, blockchain: 'solana', signerPublicKey: keys.compressedPublicKey });
    const order = await h.order('offramp', { wallet });
    const authorization = authorizationOf(order);
    const authorized = expectStatus(await h.authorize(order.id, { authorizationId: authorization.id, signature: keys.raw(authorization.method.message).toUpperCase() }), 200);
    expect(authorized.status).toBe('funded');
  });

  it('from an embedded wallet: canceling drops the authorization', async () => {
    const order = await h.order('offramp', { wallet: h.embeddedWallet });
    const authorization = authorizationOf(order);
    const canceled = expectStatus(await h.cancel(order.id), 200);
    expect(canceled.status).toBe('canceled');
    expect(canceled.authorization).toBeUndefined();
    await h.history(order.id, ['canceled']);
    expectProblem(await h.authorize(order.id, { authorizationId: authorization.id, signature: h.keys.der(authorization.method.message) }), 409, 'authorization-not-required');
  });

  it('are refused when the payment account changed since the quote', async () => {
    const account = await readyAccount(h.server, h.org);
    const body = { ...h.quoteBody('offramp'), paymentAccountId: account.id };
    const first = await quote(h.server, h.org, body);
    const second = await quote(h.server, h.org, body);
    const simulate = (simulation: RequestBody<'simulatePaymentAccount'>) =>
      h.server.api.POST('/sandbox/organization/{organizationId}/payment_account/{id}/simulate', { params: { path: { organizationId: h.org, id: account.id } }, body: simulation });
    expectStatus(await simulate({ action: 'setRailStatus', rail: 'spei', direction: 'destination', status: 'pending' }), 200);
    expectProblem(await h.create(first.quoteId), 409, 'payment-account-not-ready');
    expectStatus(await simulate({ action: 'disable' }), 200);
    expectProblem(await h.create(second.quoteId), 409, 'payment-account-disabled');
  });
});

describe('embedded-wallet authorizations that expire', () => {
  const h = harness();
  // Jobs run only on tick(), so the order is still created when the authorization expires.
  beforeAll(() => h.start({ stopJobs: true }));
  afterAll(() => h.server.close());

  it('are authorization-expired once past expiresAt, before and after the order is canceled at its funding deadline', async () => {
    const order = await h.order('offramp', { wallet: h.embeddedWallet });
    const authorization = authorizationOf(order);
    h.clock.advance(Date.parse(authorization.expiresAt) - h.clock.now().getTime() + 1);
    const body = { authorizationId: authorization.id, signature: h.keys.der(authorization.method.message) };
    const expired = `Authorization ${authorization.id} of order ${order.id} expired at ${authorization.expiresAt}.`;
    const problem = expectProblem(await h.authorize(order.id, body), 409, 'authorization-expired');
    expect(problem.detail).toBe(expired);
    expectDocumentedDetail(problem);
    expect((await h.get(order.id)).status).toBe('created');
    await h.server.jobs.tick();
    const canceled = await h.history(order.id, ['canceled']);
    expect(canceled.authorization).toBeUndefined();
    // The customer who signs late is told the authorization expired, not that nothing needs signing.
    expect(expectProblem(await h.authorize(order.id, body), 409, 'authorization-expired').detail).toBe(expired);
    expectProblem(await h.authorize(order.id, { ...body, authorizationId: crypto.randomUUID() }), 409, 'authorization-expired');
  });

  it('are authorization-expired when the clock is advanced past expiresAt, which cancels the order at that instant', async () => {
    const order = await h.order('offramp', { wallet: h.embeddedWallet });
    const authorization = authorizationOf(order);
    expectStatus(await h.server.api.POST('/sandbox/clock/advance', { body: { to: new Date(Date.parse(authorization.expiresAt) + 1000).toISOString() } }), 200);
    await h.history(order.id, ['canceled']);
    const body = { authorizationId: authorization.id, signature: h.keys.der(authorization.method.message) };
    expectProblem(await h.authorize(order.id, body), 409, 'authorization-expired');
  });
});

describe('swap orders', () => {
  const h = harness();
  beforeAll(() => h.start());
  afterAll(() => h.server.close());

  it('from an external wallet: token funding instructions, then funded → completed', async () => {
    const order = await h.order('swap');
    expect(order).toMatchObject({ type: 'swap', sourceAsset: 'USDC', targetAsset: 'CETES', fundingInstructions: { destination: { type: 'blockchain' }, asset: 'USDC' } });
    expect(order.paymentAccountId).toBeUndefined();
    expectProblem(await h.deposit(order.id), 422, 'unsupported');
    await h.simulated(order.id, { action: 'confirmSourceFunds' });
    await h.simulated(order.id, { action: 'deliver' });
    await h.history(order.id, ['funded', 'completed']);
  });

  it('fail when the target tokens cannot be delivered, be claimable, be refunded', async () => {
    const failing = await h.order('swap');
    await h.simulated(failing.id, { action: 'confirmSourceFunds' });
    await h.simulated(failing.id, { action: 'fail', failure: { code: 'transactionFailed', message: 'The swap transaction failed on-chain.' } });
    await h.history(failing.id, ['funded', 'failed']);

    const claimable = await h.order('swap');
    await h.simulated(claimable.id, { action: 'confirmSourceFunds' });
    await h.simulated(claimable.id, { action: 'makeClaimable' });
    expectStatus(await h.claim(claimable.id), 200);
    await h.simulated(claimable.id, { action: 'completeClaim' });
    await h.history(claimable.id, ['funded', 'claimable', 'completed']);

    const refunded = await h.order('swap');
    await h.simulated(refunded.id, { action: 'confirmSourceFunds' });
    await h.simulated(refunded.id, { action: 'refund' });
    await h.history(refunded.id, ['funded', 'refunded']);

    const failedBeforeFunding = await h.order('swap');
    await h.simulated(failedBeforeFunding.id, { action: 'fail' });
    await h.history(failedBeforeFunding.id, ['failed']);
  });

  it('from an embedded wallet: authorized, then delivered', async () => {
    const order = await h.order('swap', { wallet: h.embeddedWallet });
    expect(order.fundingInstructions).toBeUndefined();
    const authorization = authorizationOf(order);
    expect(authorization.method.message).toContain('CETES');
    const authorized = expectStatus(await h.authorize(order.id, { authorizationId: authorization.id, signature: h.keys.der(authorization.method.message) }), 200);
    expect(authorized.status).toBe('funded');
    await h.simulated(order.id, { action: 'deliver' });
    await h.history(order.id, ['funded', 'completed']);
  });
});

describe('order creation refusals', () => {
  const h = harness();
  beforeAll(() => h.start());
  afterAll(() => h.server.close());
  const orderCount = async () => expectStatus(await h.server.api.GET('/orders'), 200).totalItems;

  it('quote-expired for an unknown quote, an expired one, or one of another organization', async () => {
    expectProblem(await h.create(crypto.randomUUID()), 400, 'quote-expired');
    const quote = await h.quote('onramp');
    h.clock.advance(5 * 60_000);
    const expired = expectProblem(await h.create(quote.quoteId), 400, 'quote-expired');
    expect(expired.detail).toContain(quote.expiresAt);
    const customer = await createCustomer(h.server, { type: 'business' });
    await approve(h.server, customer);
    const theirs = await h.quote('onramp', { org: customer });
    expectProblem(await h.create(theirs.quoteId), 400, 'quote-expired');
    expect(await orderCount()).toBe(0);
  });

  it('unauthorized without a key, method-not-allowed for a method the path does not take', async () => {
    const quote = await h.quote('onramp');
    expectProblem(await h.server.as(null).POST('/organization/{organizationId}/order', { params: { path: { organizationId: h.org } }, body: { quoteId: quote.quoteId } }), 401, 'unauthorized');
    // A method the contract does not give this path.
    const wrongMethod = await h.server.sendRaw('DELETE', `/organization/${h.org}/order`);
    expectProblem(wrongMethod, 405, 'method-not-allowed');
    expect(wrongMethod.headers.get('allow')).toMatch(/POST/);
    expect(await orderCount()).toBe(0);
  });

  it('validation-error without a quoteId, invalid-request for malformed JSON', async () => {
    // A body without its required quoteId, and one that is not JSON.
    expectProblem(await h.server.sendRaw('POST', `/organization/${h.org}/order`, { body: {} }), 400, 'validation-error');
    expectProblem(await h.server.sendRaw('POST', `/organization/${h.org}/order`, { raw: '{"quoteId":', headers: { 'Content-Type': 'application/json' } }), 400, 'invalid-request');
  });

  it('organization-not-approved when the approval was lost since the quote', async () => {
    const person = await createCustomer(h.server);
    await approve(h.server, person);
    const quote = await h.quote('onramp', { org: person });
    // No API takes an approval back (approved is final); a compliance revocation writes it.
    await h.server.services.storage.db.updateTable('organizations').set({ kyc_status: 'denied' }).where('id', '=', person).execute();
    expectProblem(await h.create(quote.quoteId, person), 409, 'organization-not-approved');
  });

  it('not-found for an organization the key cannot act for, or an order of another organization', async () => {
    const quote = await h.quote('onramp');
    expectProblem(await h.create(quote.quoteId, crypto.randomUUID()), 404, 'not-found');
    const order = expectStatus(await h.create(quote.quoteId), 201);
    const customer = await createCustomer(h.server);
    expectProblem(await h.server.api.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId: customer, id: order.id } } }), 404, 'not-found');
    expectProblem(await h.cancel(order.id, customer), 404, 'not-found');
    expectProblem(await h.server.api.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId: h.org, id: crypto.randomUUID() } } }), 404, 'not-found');
  });
});

describe('GET /orders', () => {
  const h = harness();
  beforeAll(() => h.start());
  afterAll(() => h.server.close());
  const list = (query: { pageSize?: number; pageNumber?: number; organizationId?: string } = {}) => h.server.api.GET('/orders', { params: { query } });
  const ids = async (query: Parameters<typeof list>[0]) => expectStatus(await list(query), 200).items.map((o) => o.id);

  it('lists the partner and its customers newest first, or one of them with organizationId', async () => {
    const customer = await createCustomer(h.server);
    await approve(h.server, customer);
    const a = await h.order('onramp');
    const b = await h.order('onramp', { org: customer });
    const c = await h.order('swap');
    const all = expectStatus(await list(), 200);
    expect(all).toMatchObject({ totalItems: 3, pageSize: 30, pageNumber: 0, totalPages: 1 });
    expect(all.items.map((o) => o.id)).toEqual([c.id, b.id, a.id]);
    expect(all.items[1]).toEqual(await h.get(b.id, customer));
    expect(await ids({ pageSize: 2, pageNumber: 1 })).toEqual([a.id]);
    expect(await ids({ organizationId: customer })).toEqual([b.id]);
    expect(await ids({ organizationId: h.org })).toEqual([c.id, a.id]);
    expect(await ids({ pageNumber: 5 })).toEqual([]);
  });

  it("answers each order's stored body: the order as GET shows it, in the bytes res.json would send for the page", async () => {
    const customer = await createCustomer(h.server);
    await approve(h.server, customer);
    const a = await h.order('onramp');
    const b = await h.order('swap', { org: customer });
    expectStatus(await h.cancel(a.id), 200);
    // Straight to the server (not through test:prism's proxy), to see its own bytes.
    const answer = await h.server.sendRaw('GET', '/orders?pageSize=2', { verbatimPath: true });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const page = answer.json_ as { items: Order[] };
    expect(answer.text_).toBe(JSON.stringify(page));
    expect(Object.keys(page)).toEqual(['items', 'totalItems', 'pageSize', 'pageNumber', 'totalPages']);
    // The cancel rewrote a's body with its status.
    expect(page.items).toEqual([await h.get(b.id, customer), await h.get(a.id)]);
    expect(page.items[1]!.status).toBe('canceled');
  });

  it('presents from its columns an order whose body another contract or presenter stored, or stored before bodies were (GET too)', async () => {
    const a = await h.order('onramp');
    const b = await h.order('offramp');
    const c = await h.order('onramp');
    const { db } = h.server.services.storage;
    await db.updateTable('orders').set({ body: '{"id":"made by another presenter"}', body_tag: 'another contract' }).where('id', '=', a.id).execute();
    await db.updateTable('orders').set({ body: null, body_tag: null }).where('id', '=', b.id).execute();
    // Each as createOrder answered it: nothing about them has changed since.
    const page = expectStatus(await list({ pageSize: 3 }), 200);
    expect(page.items).toEqual([c, b, a]);
    expect(await h.get(a.id)).toEqual(a);
    expect(await h.get(b.id)).toEqual(b);
    // A read changes nothing stored: the next change of the order stores its body again.
    expect(await db.selectFrom('orders').select(['body', 'body_tag']).where('id', '=', b.id).executeTakeFirst()).toEqual({ body: null, body_tag: null });
    const canceled = expectStatus(await h.cancel(b.id), 200);
    expect(canceled).toEqual({ ...b, status: 'canceled', updatedAt: canceled.updatedAt });
    const stored = await db.selectFrom('orders').select(['body']).where('id', '=', b.id).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.body!)).toEqual(canceled);
  });

  it('is not-found for an organization the key cannot act for, invalid-request for a bad page size', async () => {
    expectProblem(await list({ organizationId: crypto.randomUUID() }), 404, 'not-found');
    expectProblem(await list({ pageSize: 101 }), 400, 'invalid-request');
    expectProblem(await list({ organizationId: 'nope' }), 400, 'invalid-request');
  });

  it("does not show another partner's orders", async () => {
    const other = await startTestServer();
    try {
      expect(expectStatus(await other.api.GET('/orders'), 200).totalItems).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('order simulators in production', () => {
  const h = harness();
  beforeAll(() => h.start({ env: { RAMP_ENV: 'production' } }));
  afterAll(() => h.server.close());

  it('are forbidden and change nothing', async () => {
    const order = await h.order('onramp');
    expectProblem(await h.deposit(order.id), 403, 'forbidden');
    expectProblem(await h.simulate(order.id, { action: 'fail' }), 403, 'forbidden');
    expect(await h.history(order.id, [])).toEqual(order);
  });
});
