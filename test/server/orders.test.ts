/**
 * v2 orders end to end over HTTP: an onramp, an offramp (external and embedded wallet) and a
 * swap, each through success and every failure branch, watching the statuses and the
 * `orderUpdated` events written to the outbox (each equal to the order's GET at that time).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clabeProblem } from '../../server/shared/clabe.ts';
import { expectProblem } from '../support/errors.ts';
import { signerKeys } from '../support/money.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { approve, createCustomer, manualClock, orderEvents, readyAccount, solanaAddress } from '../support/fixtures.ts';

type Json = any;

class Harness {
  readonly clock = manualClock({ distinctReadings: true });
  server!: TestServer;
  org = '';
  readonly externalWallet = solanaAddress();
  readonly embeddedWallet = solanaAddress();
  readonly keys = signerKeys();
  account!: Json;

  async start(options: { stopJobs?: boolean; env?: Record<string, string> } = {}) {
    this.server = await startTestServer({ clock: this.clock, ...(options.env ? { env: options.env } : {}) });
    if (options.stopJobs) await this.server.jobs.stop();
    this.org = this.server.partnerId;
    await this.server.call('POST', `/organization/${this.org}/wallet`, { body: { custody: 'external', address: this.externalWallet, blockchain: 'solana' } });
    await this.server.call('POST', `/organization/${this.org}/wallet`, { body: { custody: 'embedded', address: this.embeddedWallet, blockchain: 'solana', signerPublicKey: this.keys.publicKey } });
    // Production has no rail simulator; its tests need no payment account.
    if (options.env?.RAMP_ENV !== 'production') this.account = await readyAccount(this.server, this.org);
  }

  quoteBody(type: 'onramp' | 'offramp' | 'swap', options: { wallet?: string; amount?: string } = {}) {
    const walletAddress = options.wallet ?? this.externalWallet;
    if (type === 'onramp') return { type, sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: options.amount ?? '200.00', rail: 'spei', walletAddress };
    if (type === 'offramp') return { type, sourceAsset: 'USDC', targetAsset: 'MXN', sourceAmount: options.amount ?? '20', rail: 'spei', paymentAccountId: this.account.id, walletAddress };
    return { type, sourceAsset: 'USDC', targetAsset: 'CETES', sourceAmount: options.amount ?? '20', walletAddress };
  }

  async quote(type: 'onramp' | 'offramp' | 'swap', options: { wallet?: string; amount?: string; org?: string } = {}): Promise<Json> {
    const response = await this.server.call('POST', `/organization/${options.org ?? this.org}/quote`, { body: this.quoteBody(type, options) });
    expect(response.status, response.text_).toBe(201);
    return response.json_;
  }

  create(quoteId: string, org = this.org) {
    return this.server.call('POST', `/organization/${org}/order`, { body: { quoteId } });
  }

  async order(type: 'onramp' | 'offramp' | 'swap', options: { wallet?: string; amount?: string; org?: string } = {}): Promise<Json> {
    const quote = await this.quote(type, options);
    const response = await this.create(quote.quoteId, options.org);
    expect(response.status, response.text_).toBe(201);
    return response.json_;
  }

  async get(id: string, org = this.org): Promise<Json> {
    const response = await this.server.call('GET', `/organization/${org}/order/${id}`);
    expect(response.status).toBe(200);
    return response.json_;
  }

  simulate(id: string, body: object, org = this.org) {
    return this.server.call('POST', `/sandbox/organization/${org}/order/${id}/simulate`, { body });
  }

  deposit(id: string, body?: object, org = this.org) {
    return this.server.call('POST', `/sandbox/organization/${org}/order/${id}/deposit`, body === undefined ? {} : { body });
  }

  /** The order now, after asserting its status history and that the last event carries it exactly. */
  async history(id: string, statuses: string[], org = this.org): Promise<Json> {
    const order = await this.get(id, org);
    const sent = await orderEvents(this.server, id);
    expect(sent.map((e: Json) => e.order.status)).toEqual(statuses);
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
    const created = await h.create(quote.quoteId);
    expect(created.status).toBe(201);
    const order = created.json_;
    expect(order).toMatchObject({
      status: 'created', organizationId: h.org, quoteId: quote.quoteId, type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC',
      sourceAmount: quote.sourceAmount, targetAmount: quote.targetAmount, walletAddress: h.externalWallet,
      fundingInstructions: { destination: { type: 'spei', bankName: 'STP' }, amount: quote.sourceAmount, asset: 'MXN' },
    });
    expect(clabeProblem(order.fundingInstructions.destination.clabe)).toBeUndefined();
    expect(order.authorization).toBeUndefined();
    expect(order.failure).toBeUndefined();
    expect(await h.get(order.id)).toEqual(order);
    // Creating sends no event.
    await h.history(order.id, []);

    const funded = await h.deposit(order.id);
    expect(funded.status).toBe(200);
    expect(funded.json_.status).toBe('funded');
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

  it('return the same order on a retry with the same quote (200), even after the quote expired', async () => {
    const quote = await h.quote('onramp');
    const first = await h.create(quote.quoteId);
    const again = await h.create(quote.quoteId);
    expect(again.status).toBe(200);
    expect(again.json_).toEqual(first.json_);
    h.clock.advance(10 * 60_000);
    const later = await h.create(quote.quoteId);
    expect(later.status).toBe(200);
    expect(later.json_.id).toBe(first.json_.id);
  });

  it('refund a deposit of another amount (created → refunded)', async () => {
    const order = await h.order('onramp', { amount: '200.00' });
    const refunded = await h.deposit(order.id, { amount: '150' });
    expect(refunded.json_.status).toBe('refunded');
    await h.history(order.id, ['refunded']);
    h.clock.advance(2000);
    await h.server.jobs.tick();
    await h.history(order.id, ['refunded']);
  });

  it('take the quoted amount written differently as the quoted amount', async () => {
    const order = await h.order('onramp', { amount: '200.00' });
    expect((await h.deposit(order.id, { amount: '200', autoComplete: false })).json_.status).toBe('funded');
  });

  it('fail from created with a code and message', async () => {
    const order = await h.order('onramp');
    const failed = await h.simulate(order.id, { action: 'fail', failure: { code: 'payoutRejected', message: 'The bank rejected it.' } });
    expect(failed.json_).toMatchObject({ status: 'failed', failure: { code: 'payoutRejected', message: 'The bank rejected it.' } });
    await h.history(order.id, ['failed']);
  });

  it('fail from funded (the default failure), when kept funded', async () => {
    const order = await h.order('onramp');
    expect((await h.deposit(order.id, { autoComplete: false })).json_.status).toBe('funded');
    h.clock.advance(2000);
    await h.server.jobs.tick();
    expect((await h.get(order.id)).status).toBe('funded');
    const failed = await h.simulate(order.id, { action: 'fail' });
    expect(failed.json_.failure).toEqual({ code: 'simulatedFailure', message: 'Failed by the sandbox simulator.' });
    await h.history(order.id, ['funded', 'failed']);
  });

  it('refund from funded', async () => {
    const order = await h.order('onramp');
    await h.deposit(order.id, { autoComplete: false });
    expect((await h.simulate(order.id, { action: 'refund' })).json_.status).toBe('refunded');
    await h.history(order.id, ['funded', 'refunded']);
  });

  it('become claimable, prepare the same claim until it expires, and complete when claimed', async () => {
    const order = await h.order('onramp');
    expectProblem(await h.server.call('POST', `/organization/${h.org}/order/${order.id}/claim`), 409, 'order-not-claimable');
    await h.deposit(order.id, { autoComplete: false });
    expectProblem(await h.server.call('POST', `/organization/${h.org}/order/${order.id}/claim`), 409, 'order-not-claimable');
    expect((await h.simulate(order.id, { action: 'makeClaimable' })).json_.status).toBe('claimable');
    const claim = await h.server.call('POST', `/organization/${h.org}/order/${order.id}/claim`);
    expect(claim.status).toBe(200);
    expect(claim.json_).toMatchObject({ orderId: order.id, blockchain: 'solana', claimId: expect.any(String), transaction: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) });
    expect((await h.server.call('POST', `/organization/${h.org}/order/${order.id}/claim`)).json_).toEqual(claim.json_);
    h.clock.advance(11 * 60_000);
    const fresh = (await h.server.call('POST', `/organization/${h.org}/order/${order.id}/claim`)).json_;
    expect(fresh.claimId).not.toBe(claim.json_.claimId);
    // Preparing a claim is no status change: no event.
    await h.history(order.id, ['funded', 'claimable']);
    expect((await h.simulate(order.id, { action: 'completeClaim' })).json_.status).toBe('completed');
    await h.history(order.id, ['funded', 'claimable', 'completed']);
    expectProblem(await h.server.call('POST', `/organization/${h.org}/order/${order.id}/claim`), 409, 'order-not-claimable');
  });

  it('fail from claimable', async () => {
    const order = await h.order('onramp');
    await h.deposit(order.id, { autoComplete: false });
    await h.simulate(order.id, { action: 'makeClaimable' });
    expect((await h.simulate(order.id, { action: 'fail', failure: { code: 'claimExpired', message: 'Never claimed.' } })).json_.status).toBe('failed');
    await h.history(order.id, ['funded', 'claimable', 'failed']);
  });

  it('cancel only before funding; a second cancel returns the canceled order unchanged', async () => {
    const order = await h.order('onramp');
    const canceled = await h.server.call('POST', `/organization/${h.org}/order/${order.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.json_.status).toBe('canceled');
    const again = await h.server.call('POST', `/organization/${h.org}/order/${order.id}/cancel`);
    expect(again.json_).toEqual(canceled.json_);
    await h.history(order.id, ['canceled']);
    expectProblem(await h.deposit(order.id), 409, 'conflict');

    const funded = await h.order('onramp');
    await h.deposit(funded.id, { autoComplete: false });
    const refused = await h.server.call('POST', `/organization/${h.org}/order/${funded.id}/cancel`);
    expectProblem(refused, 409, 'order-not-cancelable');
    await h.history(funded.id, ['funded']);
  });

  it('are canceled when the funding deadline passes (simulated, and on their own)', async () => {
    const simulated = await h.order('onramp');
    expect((await h.simulate(simulated.id, { action: 'expireFunding' })).json_.status).toBe('canceled');
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
    const replaced = await h.simulate(order.id, { action: 'replaceFundingInstructions' });
    expect(replaced.json_.status).toBe('created');
    expect(replaced.json_.fundingInstructions.destination.clabe).not.toBe(order.fundingInstructions.destination.clabe);
    expect(clabeProblem(replaced.json_.fundingInstructions.destination.clabe)).toBeUndefined();
    const now = await h.history(order.id, ['created']);
    expect(now.fundingInstructions).toEqual(replaced.json_.fundingInstructions);
    await h.deposit(order.id, { autoComplete: false });
    expectProblem(await h.simulate(order.id, { action: 'replaceFundingInstructions' }), 409, 'conflict');
  });

  it('refuse illegal simulator moves (conflict) and malformed ones, changing nothing', async () => {
    const order = await h.order('onramp');
    for (const action of ['deliver', 'makeClaimable', 'completeClaim', 'refund', 'confirmSourceFunds']) {
      expectProblem(await h.simulate(order.id, { action }), 409, 'conflict');
    }
    const misplaced = await h.simulate(order.id, { action: 'deliver', failure: { code: 'x', message: 'y' } });
    expectProblem(misplaced, 400, 'validation-error');
    expect(misplaced.json_.errors).toEqual([{ pointer: '/failure', detail: 'is allowed only with the fail action' }]);
    expectProblem(await h.simulate(order.id, { action: 'teleport' }), 400, 'invalid-request');
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
    expectProblem(await h.deposit(order.id), 422, 'unsupported');
    expectProblem(
      await h.server.call('POST', `/organization/${h.org}/order/${order.id}/authorization`, { body: { authorizationId: crypto.randomUUID(), signature: 'ab' } }),
      409,
      'authorization-not-required',
    );
    expect((await h.simulate(order.id, { action: 'confirmSourceFunds' })).json_.status).toBe('funded');
    // Offramps are paid out by the simulator, not on their own.
    h.clock.advance(5000);
    await h.server.jobs.tick();
    expect((await h.simulate(order.id, { action: 'deliver' })).json_.status).toBe('completed');
    await h.history(order.id, ['funded', 'completed']);
  });

  it('from an external wallet: fail when the payout is rejected, refund, cancel', async () => {
    const failing = await h.order('offramp');
    await h.simulate(failing.id, { action: 'confirmSourceFunds' });
    const failed = await h.simulate(failing.id, { action: 'fail', failure: { code: 'payoutRejected', message: 'The receiving bank rejected the SPEI transfer.' } });
    expect(failed.json_.failure.code).toBe('payoutRejected');
    await h.history(failing.id, ['funded', 'failed']);

    const refunding = await h.order('offramp');
    await h.simulate(refunding.id, { action: 'confirmSourceFunds' });
    await h.simulate(refunding.id, { action: 'refund' });
    await h.history(refunding.id, ['funded', 'refunded']);

    const canceling = await h.order('offramp');
    await h.server.call('POST', `/organization/${h.org}/order/${canceling.id}/cancel`);
    await h.history(canceling.id, ['canceled']);
  });

  it('from an embedded wallet: a pending authorization and no funding instructions; a DER signature funds it', async () => {
    const order = await h.order('offramp', { wallet: h.embeddedWallet });
    expect(order.fundingInstructions).toBeUndefined();
    expect(order.authorization).toEqual({ id: expect.any(String), method: { message: expect.stringContaining(order.id) }, expiresAt: expect.any(String) });
    const { message } = order.authorization.method;
    expect(message).toContain(h.account.accountDetails.clabe);
    const path = `/organization/${h.org}/order/${order.id}/authorization`;
    const sign = (signature: string, authorizationId = order.authorization.id) => h.server.call('POST', path, { body: { authorizationId, signature } });

    expectProblem(await sign(h.keys.der(message), crypto.randomUUID()), 409, 'authorization-expired');
    expectProblem(await sign('not hex at all'), 400, 'invalid-signature');
    expectProblem(await sign(h.keys.der(`${message} `)), 400, 'invalid-signature');
    expectProblem(await sign(signerKeys().der(message)), 400, 'invalid-signature');
    expectProblem(await h.simulate(order.id, { action: 'confirmSourceFunds' }), 409, 'conflict');
    expect(await h.history(order.id, [])).toEqual(order);

    const authorized = await sign(h.keys.der(message));
    expect(authorized.status).toBe(200);
    expect(authorized.json_.status).toBe('funded');
    expect(authorized.json_.authorization).toBeUndefined();
    await h.history(order.id, ['funded']);
    expectProblem(await sign(h.keys.der(message)), 409, 'authorization-not-required');
    expect((await h.simulate(order.id, { action: 'deliver' })).json_.status).toBe('completed');
    await h.history(order.id, ['funded', 'completed']);
  });

  it('from an embedded wallet with a compressed key: an r||s signature funds it too', async () => {
    const keys = signerKeys();
    const wallet = solanaAddress();
    await h.server.call('POST', `/organization/${h.org}/wallet`, { body: { custody: 'embedded', address: wallet, blockchain: 'solana', signerPublicKey: keys.compressedPublicKey } });
    const order = await h.order('offramp', { wallet });
    const authorized = await h.server.call('POST', `/organization/${h.org}/order/${order.id}/authorization`, {
      body: { authorizationId: order.authorization.id, signature: keys.raw(order.authorization.method.message).toUpperCase() },
    });
    expect(authorized.json_.status).toBe('funded');
  });

  it('from an embedded wallet: canceling drops the authorization', async () => {
    const order = await h.order('offramp', { wallet: h.embeddedWallet });
    const canceled = (await h.server.call('POST', `/organization/${h.org}/order/${order.id}/cancel`)).json_;
    expect(canceled.status).toBe('canceled');
    expect(canceled.authorization).toBeUndefined();
    await h.history(order.id, ['canceled']);
    expectProblem(
      await h.server.call('POST', `/organization/${h.org}/order/${order.id}/authorization`, { body: { authorizationId: order.authorization.id, signature: h.keys.der(order.authorization.method.message) } }),
      409,
      'authorization-not-required',
    );
  });

  it('are refused when the payment account changed since the quote', async () => {
    const account = await readyAccount(h.server, h.org);
    const quote = async () => (await h.server.call('POST', `/organization/${h.org}/quote`, { body: { ...h.quoteBody('offramp'), paymentAccountId: account.id } })).json_;
    const first = await quote();
    const second = await quote();
    const simulate = `/sandbox/organization/${h.org}/payment_account/${account.id}/simulate`;
    await h.server.call('POST', simulate, { body: { action: 'setRailStatus', rail: 'spei', direction: 'destination', status: 'pending' } });
    expectProblem(await h.create(first.quoteId), 409, 'payment-account-not-ready');
    await h.server.call('POST', simulate, { body: { action: 'disable' } });
    expectProblem(await h.create(second.quoteId), 409, 'payment-account-disabled');
  });
});

describe('embedded-wallet authorizations that expire', () => {
  const h = harness();
  // Jobs run only on tick(), so the order is still created when the authorization expires.
  beforeAll(() => h.start({ stopJobs: true }));
  afterAll(() => h.server.close());

  it('are authorization-expired once past expiresAt, then the order is canceled at its funding deadline', async () => {
    const order = await h.order('offramp', { wallet: h.embeddedWallet });
    h.clock.advance(Date.parse(order.authorization.expiresAt) - h.clock.now().getTime() + 1);
    const body = { authorizationId: order.authorization.id, signature: h.keys.der(order.authorization.method.message) };
    const path = `/organization/${h.org}/order/${order.id}/authorization`;
    expectProblem(await h.server.call('POST', path, { body }), 409, 'authorization-expired');
    expect((await h.get(order.id)).status).toBe('created');
    await h.server.jobs.tick();
    await h.history(order.id, ['canceled']);
    expectProblem(await h.server.call('POST', path, { body }), 409, 'authorization-not-required');
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
    await h.simulate(order.id, { action: 'confirmSourceFunds' });
    await h.simulate(order.id, { action: 'deliver' });
    await h.history(order.id, ['funded', 'completed']);
  });

  it('fail when the target tokens cannot be delivered, be claimable, be refunded', async () => {
    const failing = await h.order('swap');
    await h.simulate(failing.id, { action: 'confirmSourceFunds' });
    await h.simulate(failing.id, { action: 'fail', failure: { code: 'transactionFailed', message: 'The swap transaction failed on-chain.' } });
    await h.history(failing.id, ['funded', 'failed']);

    const claimable = await h.order('swap');
    await h.simulate(claimable.id, { action: 'confirmSourceFunds' });
    await h.simulate(claimable.id, { action: 'makeClaimable' });
    expect((await h.server.call('POST', `/organization/${h.org}/order/${claimable.id}/claim`)).status).toBe(200);
    await h.simulate(claimable.id, { action: 'completeClaim' });
    await h.history(claimable.id, ['funded', 'claimable', 'completed']);

    const refunded = await h.order('swap');
    await h.simulate(refunded.id, { action: 'confirmSourceFunds' });
    await h.simulate(refunded.id, { action: 'refund' });
    await h.history(refunded.id, ['funded', 'refunded']);

    const failedBeforeFunding = await h.order('swap');
    await h.simulate(failedBeforeFunding.id, { action: 'fail' });
    await h.history(failedBeforeFunding.id, ['failed']);
  });

  it('from an embedded wallet: authorized, then delivered', async () => {
    const order = await h.order('swap', { wallet: h.embeddedWallet });
    expect(order.fundingInstructions).toBeUndefined();
    expect(order.authorization.method.message).toContain('CETES');
    const authorized = await h.server.call('POST', `/organization/${h.org}/order/${order.id}/authorization`, {
      body: { authorizationId: order.authorization.id, signature: h.keys.der(order.authorization.method.message) },
    });
    expect(authorized.json_.status).toBe('funded');
    await h.simulate(order.id, { action: 'deliver' });
    await h.history(order.id, ['funded', 'completed']);
  });
});

describe('order creation refusals', () => {
  const h = harness();
  beforeAll(() => h.start());
  afterAll(() => h.server.close());

  it('quote-expired for an unknown quote, an expired one, or one of another organization', async () => {
    expectProblem(await h.create(crypto.randomUUID()), 400, 'quote-expired');
    const quote = await h.quote('onramp');
    h.clock.advance(5 * 60_000);
    const expired = await h.create(quote.quoteId);
    expectProblem(expired, 400, 'quote-expired');
    expect(expired.json_.detail).toContain(quote.expiresAt);
    const customer = await createCustomer(h.server, { type: 'business' });
    await approve(h.server, customer);
    const theirs = await h.quote('onramp', { org: customer });
    expectProblem(await h.create(theirs.quoteId), 400, 'quote-expired');
    const page = await h.server.call('GET', '/orders');
    expect(page.json_.totalItems).toBe(0);
  });

  it('unauthorized without a key, method-not-allowed for a method the path does not take', async () => {
    const quote = await h.quote('onramp');
    expectProblem(await h.server.call('POST', `/organization/${h.org}/order`, { body: { quoteId: quote.quoteId }, key: null }), 401, 'unauthorized');
    const wrongMethod = await h.server.call('DELETE', `/organization/${h.org}/order`);
    expectProblem(wrongMethod, 405, 'method-not-allowed');
    expect(wrongMethod.headers.get('allow')).toMatch(/POST/);
    expect((await h.server.call('GET', '/orders')).json_.totalItems).toBe(0);
  });

  it('validation-error without a quoteId, invalid-request for malformed JSON', async () => {
    const missing = await h.server.call('POST', `/organization/${h.org}/order`, { body: {} });
    expectProblem(missing, 400, 'validation-error');
    expectProblem(await h.server.call('POST', `/organization/${h.org}/order`, { raw: '{"quoteId":', headers: { 'Content-Type': 'application/json' } }), 400, 'invalid-request');
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
    const order = (await h.create(quote.quoteId)).json_;
    const customer = await createCustomer(h.server);
    expectProblem(await h.server.call('GET', `/organization/${customer}/order/${order.id}`), 404, 'not-found');
    expectProblem(await h.server.call('POST', `/organization/${customer}/order/${order.id}/cancel`), 404, 'not-found');
    expectProblem(await h.server.call('GET', `/organization/${h.org}/order/${crypto.randomUUID()}`), 404, 'not-found');
  });
});

describe('GET /orders', () => {
  const h = harness();
  beforeAll(() => h.start());
  afterAll(() => h.server.close());

  it('lists the partner and its customers newest first, or one of them with organizationId', async () => {
    const customer = await createCustomer(h.server);
    await approve(h.server, customer);
    const a = await h.order('onramp');
    const b = await h.order('onramp', { org: customer });
    const c = await h.order('swap');
    const all = await h.server.call('GET', '/orders');
    expect(all.json_).toMatchObject({ totalItems: 3, pageSize: 30, pageNumber: 0, totalPages: 1 });
    expect(all.json_.items.map((o: Json) => o.id)).toEqual([c.id, b.id, a.id]);
    expect(all.json_.items[1]).toEqual(await h.get(b.id, customer));
    const second = await h.server.call('GET', '/orders?pageSize=2&pageNumber=1');
    expect(second.json_.items.map((o: Json) => o.id)).toEqual([a.id]);
    expect((await h.server.call('GET', `/orders?organizationId=${customer}`)).json_.items.map((o: Json) => o.id)).toEqual([b.id]);
    expect((await h.server.call('GET', `/orders?organizationId=${h.org}`)).json_.items.map((o: Json) => o.id)).toEqual([c.id, a.id]);
    expect((await h.server.call('GET', '/orders?pageNumber=5')).json_.items).toEqual([]);
  });

  it('is not-found for an organization the key cannot act for, invalid-request for a bad page size', async () => {
    expectProblem(await h.server.call('GET', `/orders?organizationId=${crypto.randomUUID()}`), 404, 'not-found');
    expectProblem(await h.server.call('GET', '/orders?pageSize=101'), 400, 'invalid-request');
    expectProblem(await h.server.call('GET', '/orders?organizationId=nope'), 400, 'invalid-request');
  });

  it("does not show another partner's orders", async () => {
    const other = await startTestServer();
    try {
      const page = await other.call('GET', '/orders');
      expect(page.json_.totalItems).toBe(0);
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
