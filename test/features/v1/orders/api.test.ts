/**
 * v1 onramp and offramp orders over HTTP, through every branch of their state machines
 * (V1OrderStatus), with the `order_updated` events in the outbox, and every refusal with its
 * documented status and body, storing nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clabeProblem } from '../../../../server/shared/clabe.ts';
import type { Schema } from '../../../../client/index.ts';
import { expectStatus, type Api, type RequestBody } from '../../../support/api.ts';
import { expectPlainError } from '../../../support/errors.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { count, createBankAccount, createWallet, solanaAddress, stellarAddress } from '../../../support/v1Money.ts';
import { createCustomer, manualClock, otherPartner, unreachableOrganization, v1Events } from '../../../support/fixtures.ts';

const clock = manualClock({ start: '2026-03-02T15:00:00.000Z' });
let server: TestServer;
let customer: string;
let wallet: Schema<'V1Wallet'>;
let embedded: Schema<'V1Wallet'>;
let bank: Schema<'V1BankAccount'>;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { RAMP_V1_DELIVERY_SECONDS: '2', RAMP_V1_REVERSAL_WINDOW_SECONDS: '30' } });
  customer = await createCustomer(server, { approved: true });
  wallet = await createWallet(server, customer);
  embedded = await createWallet(server, customer, 'embedded');
  bank = await createBankAccount(server, customer);
});
afterAll(() => server.close());
beforeEach(() => clock.advance(1000));

type OrderRequest = RequestBody<'v1CreateOrder'>;
type Action = RequestBody<'v1SimulateOrder'>['action'];
const onramp = (o: Partial<OrderRequest> = {}): OrderRequest => ({ customerId: customer, type: 'onramp', sourceAmount: '250.00', walletId: wallet.id, token: 'CETES', ...o });
const offramp = (o: Partial<OrderRequest> = {}): OrderRequest => ({ customerId: customer, type: 'offramp', sourceAmount: '100.000000', bankAccountId: bank.internalAccountId, walletId: wallet.id, token: 'CETES', ...o });

const post = (body: OrderRequest) => server.api.POST('/ramp/order', { body });
const create = async (body: OrderRequest) => expectStatus(await post(body), 201);
const path = (id: string) => ({ params: { path: { id } } });
const get = async (id: string) => expectStatus(await server.api.GET('/ramp/order/{id}', path(id)), 200);
const cancel = (id: string, api: Api = server.api) => api.POST('/ramp/order/{id}/cancel', path(id));
const regenerate = (id: string, api: Api = server.api) => api.POST('/ramp/order/{id}/regenerate_tx', path(id));
const deposit = (orderId: string, amount?: string, api: Api = server.api) => api.POST('/ramp/order/fiat_received', { body: { orderId, ...(amount ? { amount } : {}) } });
/** Each simulated step a second after the last, so events and updatedAt are ordered. */
const later = () => clock.advance(1000);
const simulate = (id: string, action: Action) => (later(), server.api.POST('/sandbox/ramp/order/{id}/simulate', { ...path(id), body: { action } }));
const fiatReceived = (orderId: string, amount?: string) => (later(), deposit(orderId, amount));
/** The order after a step that must succeed. */
const simulated = async (id: string, action: Action) => expectStatus(await simulate(id, action), 200);
const received = async (orderId: string, amount?: string) => expectStatus(await fiatReceived(orderId, amount), 200);
/** A refusal of a v1 transition: 409 with its message. */
const conflict = (answer: Parameters<typeof expectPlainError>[0], where?: string) => expectPlainError(answer, 409, where);

/** Each event carries the order exactly as its GET returned it then; the last one equals the GET now. */
async function expectEvents(id: string, statuses: Schema<'V1OrderStatus'>[]) {
  const events = await v1Events(server, 'order_updated', id);
  expect(events.map((e) => e.entity.status)).toEqual(statuses);
  for (const e of events) expect(e).toMatchObject({ partnerId: server.partnerId, organizationId: customer });
  if (events.length) expect(events.at(-1)!.entity).toEqual(await get(id));
  return events;
}

describe('a v1 onramp', () => {
  it('is created with a deposit CLABE and no webhook, funded by the deposit, completed with the delivery signature', async () => {
    const order = await create(onramp());
    expect(order).toMatchObject({ customerId: customer, type: 'onramp', status: 'created', sourceAmount: '250.00', token: 'CETES' });
    expect(clabeProblem(order.depositClabe!)).toBeUndefined();
    expect(Number(order.targetAmount)).toBeGreaterThan(0);
    expect(order.targetAmount).toMatch(/^[0-9]+\.[0-9]{6}$/);
    for (const absent of ['confirmedTxSignature', 'burnTransaction', 'approval']) expect(order).not.toHaveProperty(absent);
    await expectEvents(order.id, []);

    const funded = await received(order.id);
    expect(funded).toMatchObject({ status: 'funded', depositClabe: order.depositClabe });
    expect(funded).not.toHaveProperty('confirmedTxSignature');
    await expectEvents(order.id, ['funded']);

    const completed = await simulated(order.id, 'tokensDelivered');
    expect(completed.status).toBe('completed');
    expect(completed.confirmedTxSignature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,88}$/);
    const events = await expectEvents(order.id, ['funded', 'completed']);
    expect(events[0]!.entity.updatedAt < events[1]!.entity.updatedAt).toBe(true);
  });

  it('receives its tokens on its own once the delivery time has passed after the deposit', async () => {
    const order = await create(onramp({ walletId: undefined, walletAddress: stellarAddress }));
    await received(order.id);
    clock.advance(1900);
    await server.jobs.tick();
    expect((await get(order.id)).status).toBe('funded');
    clock.advance(200);
    await server.jobs.tick();
    const completed = await get(order.id);
    expect(completed.status).toBe('completed');
    // A Stellar destination gets a Stellar transaction hash.
    expect(completed.confirmedTxSignature).toMatch(/^[0-9a-f]{64}$/);
    await expectEvents(order.id, ['funded', 'completed']);
    await server.jobs.tick();
    await expectEvents(order.id, ['funded', 'completed']);
  });

  it('is funded and then refunded when the deposit does not match, with two webhooks', async () => {
    const order = await create(onramp());
    expect((await received(order.id, '200.00')).status).toBe('refunded');
    const events = await v1Events(server, 'order_updated', order.id);
    expect(events.map((e) => e.entity.status)).toEqual(['funded', 'refunded']);
    expect(events[1]!.entity).toEqual(await get(order.id));
    // Nothing is delivered for a refunded order, and nothing more can happen to it.
    clock.advance(60_000);
    await server.jobs.tick();
    expect((await get(order.id)).status).toBe('refunded');
    for (const action of ['tokensDelivered', 'fail'] as const) conflict(await simulate(order.id, action), action);
    expect((await v1Events(server, 'order_updated', order.id)).length).toBe(2);
  });

  it('takes a deposit of the same amount written differently as matching', async () => {
    const order = await create(onramp({ sourceAmount: '300.5' }));
    expect((await received(order.id, '300.50')).status).toBe('funded');
  });

  it('fails from created, and then accepts no deposit', async () => {
    const order = await create(onramp());
    expect((await simulated(order.id, 'fail')).status).toBe('failed');
    await expectEvents(order.id, ['failed']);
    expect(conflict(await fiatReceived(order.id))).toEqual({ error: 'Order is not an onramp awaiting its deposit' });
  });

  it('cannot fail once funded (a mismatch is refunded instead) nor be canceled', async () => {
    const order = await create(onramp());
    await received(order.id);
    expect(conflict(await simulate(order.id, 'fail'))).toEqual({ error: 'Action fail does not apply to an onramp order in status funded' });
    expect(conflict(await cancel(order.id))).toEqual({ error: 'Order can only be canceled while created' });
    await expectEvents(order.id, ['funded']);
  });

  it('is canceled while created, once', async () => {
    const order = await create(onramp());
    expect(expectStatus(await cancel(order.id), 200).status).toBe('canceled');
    await expectEvents(order.id, ['canceled']);
    conflict(await cancel(order.id));
    conflict(await fiatReceived(order.id));
    await expectEvents(order.id, ['canceled']);
  });

  it('refuses the offramp-only actions and a regenerated transaction', async () => {
    const order = await create(onramp());
    for (const action of ['burnConfirmed', 'fiatSent', 'reversalWindowPassed', 'expireTransaction', 'tokensDelivered'] as const) {
      expect(conflict(await simulate(order.id, action), action)).toEqual({ error: `Action ${action} does not apply to an onramp order in status created` });
    }
    expect(conflict(await regenerate(order.id))).toEqual({ error: 'Only offramp orders have a burn transaction' });
    expect(await get(order.id)).toEqual(order);
    await expectEvents(order.id, []);
  });
});

describe('a v1 offramp', () => {
  it('carries a burn transaction, is funded by its confirmation, completed by the payout, finalized when the reversal window passes', async () => {
    const order = await create(offramp());
    expect(order).toMatchObject({ type: 'offramp', status: 'created', sourceAmount: '100.000000' });
    expect(order.targetAmount).toMatch(/^[0-9]+\.[0-9]{2}$/);
    expect(Buffer.from(order.burnTransaction!, 'base64').length).toBeGreaterThan(64);
    for (const absent of ['depositClabe', 'confirmedTxSignature', 'approval']) expect(order).not.toHaveProperty(absent);

    expect((await simulated(order.id, 'burnConfirmed')).status).toBe('funded');
    expect((await simulated(order.id, 'fiatSent')).status).toBe('completed');
    await expectEvents(order.id, ['funded', 'completed']);

    clock.advance(29_000);
    await server.jobs.tick();
    expect((await get(order.id)).status).toBe('completed');
    clock.advance(1_000);
    await server.jobs.tick();
    const finalized = await get(order.id);
    expect(finalized.status).toBe('finalized');
    expect(finalized.burnTransaction).toBe(order.burnTransaction);
    await expectEvents(order.id, ['funded', 'completed', 'finalized']);
    conflict(await simulate(order.id, 'reversalWindowPassed'));
  });

  it('is finalized at once by reversalWindowPassed, and not again by the job', async () => {
    const order = await create(offramp());
    await simulated(order.id, 'burnConfirmed');
    await simulated(order.id, 'fiatSent');
    expect((await simulated(order.id, 'reversalWindowPassed')).status).toBe('finalized');
    clock.advance(60_000);
    await server.jobs.tick();
    await expectEvents(order.id, ['funded', 'completed', 'finalized']);
  });

  it('from an embedded wallet awaits the owner\'s approval while created, renewed with the transaction', async () => {
    const order = await create(offramp({ walletId: embedded.id }));
    expect(order.approval).toEqual({
      approvalMessageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      approvalMessage: `Approve order ${order.id}: sell 100.000000 CETES for ${order.targetAmount} MXN to CLABE ${bank.clabe}`,
      summary: `Sell 100.000000 CETES for ${order.targetAmount} MXN to BBVA ****${bank.clabe.slice(-4)}`,
    });
    clock.advance(1000);
    const regenerated = expectStatus(await regenerate(order.id), 200);
    expect(regenerated.burnTransaction).not.toBe(order.burnTransaction);
    expect(regenerated.approval!.approvalMessageId).not.toBe(order.approval!.approvalMessageId);
    expect(regenerated.updatedAt > order.updatedAt).toBe(true);
    expect(await get(order.id)).toEqual(regenerated);
    await expectEvents(order.id, []);

    const funded = await simulated(order.id, 'burnConfirmed');
    expect(funded.status).toBe('funded');
    expect(funded).not.toHaveProperty('approval');
    await expectEvents(order.id, ['funded']);
  });

  it('cannot be confirmed with an expired transaction until it is regenerated', async () => {
    const order = await create(offramp());
    expect(await simulated(order.id, 'expireTransaction')).toEqual(order);
    expect(conflict(await simulate(order.id, 'burnConfirmed'))).toEqual({ error: 'The burn transaction has expired; regenerate it first' });
    await expectEvents(order.id, []);
    const fresh = expectStatus(await regenerate(order.id), 200);
    expect(fresh.burnTransaction).not.toBe(order.burnTransaction);
    expect((await simulated(order.id, 'burnConfirmed')).status).toBe('funded');
    expect(conflict(await regenerate(order.id))).toEqual({ error: 'The transaction can only be regenerated while the order is created' });
    conflict(await simulate(order.id, 'expireTransaction'));
  });

  it('fails from created', async () => {
    const order = await create(offramp());
    expect((await simulated(order.id, 'fail')).status).toBe('failed');
    await expectEvents(order.id, ['failed']);
    conflict(await simulate(order.id, 'burnConfirmed'));
  });

  it('fails from funded, and then cannot be canceled', async () => {
    const order = await create(offramp());
    await simulated(order.id, 'burnConfirmed');
    conflict(await cancel(order.id));
    expect((await simulated(order.id, 'fail')).status).toBe('failed');
    await expectEvents(order.id, ['funded', 'failed']);
  });

  it('is canceled while created, and then takes no confirmation', async () => {
    const order = await create(offramp({ walletId: embedded.id }));
    const canceled = expectStatus(await cancel(order.id), 200);
    expect(canceled.status).toBe('canceled');
    expect(canceled).not.toHaveProperty('approval');
    conflict(await simulate(order.id, 'burnConfirmed'));
    await expectEvents(order.id, ['canceled']);
  });

  it('refuses a deposit and the onramp-only actions', async () => {
    const order = await create(offramp());
    conflict(await fiatReceived(order.id));
    for (const action of ['tokensDelivered', 'fiatSent', 'reversalWindowPassed'] as const) conflict(await simulate(order.id, action), action);
    await expectEvents(order.id, []);
  });
});

describe('v1 order transitions under concurrency', () => {
  it('apply one deposit of many sent at once: one 200, the rest 409, one event', async () => {
    const order = await create(onramp());
    later();
    const responses = await Promise.all(Array.from({ length: 10 }, () => deposit(order.id)));
    expect(responses.map((r) => r.response.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    await expectEvents(order.id, ['funded']);
  });

  it('let a cancel and a deposit racing leave exactly one of them applied', async () => {
    const order = await create(onramp());
    later();
    const [canceled, deposited] = await Promise.all([cancel(order.id), deposit(order.id)]);
    expect([canceled.response.status, deposited.response.status].sort()).toEqual([200, 409]);
    const events = await v1Events(server, 'order_updated', order.id);
    expect(events.length).toBe(1);
    expect(events[0]!.entity.status).toBe(canceled.response.status === 200 ? 'canceled' : 'funded');
  });
});

describe('v1 order creation refuses', () => {
  let unapproved: string;
  let otherCustomer: string;
  let otherWallet: Schema<'V1Wallet'>;
  let otherBank: Schema<'V1BankAccount'>;
  beforeAll(async () => {
    unapproved = await createCustomer(server);
    otherCustomer = await createCustomer(server, { approved: true });
    otherWallet = await createWallet(server, otherCustomer);
    otherBank = await createBankAccount(server, otherCustomer);
  });

  const cases: [string, () => OrderRequest, number, string][] = [
    ['both walletId and walletAddress', () => onramp({ walletAddress: solanaAddress }), 400, 'Exactly one of walletId or walletAddress is required'],
    ['neither walletId nor walletAddress', () => onramp({ walletId: undefined }), 400, 'Exactly one of walletId or walletAddress is required'],
    ['a zero amount', () => onramp({ sourceAmount: '0' }), 400, 'sourceAmount must be greater than 0'],
    ['a negative amount', () => offramp({ sourceAmount: '-5.00' }), 400, 'sourceAmount must be greater than 0'],
    ['an unknown token', () => onramp({ token: 'XYZ' }), 400, 'Unknown token XYZ'],
    ['an offramp without bank account', () => offramp({ bankAccountId: undefined }), 400, 'bankAccountId is required for an offramp'],
    ['an unknown customer', () => onramp({ customerId: crypto.randomUUID() }), 404, 'Customer not found'],
    ['another customer\'s wallet', () => onramp({ walletId: otherWallet.id }), 404, 'Wallet not found'],
    ['another customer\'s bank account', () => offramp({ bankAccountId: otherBank.internalAccountId }), 404, 'Bank account not found'],
    ['a customer whose KYC is not approved', () => onramp({ customerId: unapproved, walletId: undefined, walletAddress: solanaAddress }), 409, 'Customer KYC is not approved'],
  ];

  it.each(cases)('%s', async (_name, body, status, error) => {
    const before = await count(server, 'v1_orders');
    expect(expectPlainError(await post(body()), status)).toEqual({ error });
    expect(await count(server, 'v1_orders')).toBe(before);
  });

  it('an offramp to a bank account not active, or active but not compliant', async () => {
    const pending = await createBankAccount(server, customer, { usable: false });
    const notCompliant = await createBankAccount(server, customer, { usable: false });
    expectStatus(await server.api.POST('/sandbox/ramp/bank-account/{id}/status', {
      params: { path: { id: notCompliant.internalAccountId } },
      body: { status: 'bank_account_active', compliant: false },
    }), 200);
    const before = await count(server, 'v1_orders');
    for (const account of [pending, notCompliant]) {
      expect(conflict(await post(offramp({ bankAccountId: account.internalAccountId })))).toEqual({ error: 'Bank account is not active and compliant' });
    }
    expect(await count(server, 'v1_orders')).toBe(before);
  });

  it('a body the contract refuses, in the v1 error shape', async () => {
    const before = await count(server, 'v1_orders');
    // A type the enum does not hold, a malformed decimal, required fields missing, broken JSON.
    for (const body of [{ ...onramp(), type: 'swap' }, { ...onramp(), sourceAmount: '2,50' }, { customerId: customer }]) {
      expectPlainError(await server.sendRaw('POST', '/ramp/order', { body }), 400, JSON.stringify(body));
    }
    expectPlainError(await server.sendRaw('POST', '/ramp/order', { raw: '{"customerId":', headers: { 'Content-Type': 'application/json' } }), 400);
    expect(await count(server, 'v1_orders')).toBe(before);
  });

  it('a customer who is not a direct child of the key\'s organization', async () => {
    const grandchild = await unreachableOrganization(server, customer, { type: 'personal', approved: true });
    const other = await otherPartner(server);
    const strangers = await createCustomer(server, { key: other.key, approved: true });
    for (const customerId of [grandchild, strangers, server.partnerId]) {
      expect(expectPlainError(await post(onramp({ customerId, walletId: undefined, walletAddress: solanaAddress })), 404)).toEqual({ error: 'Customer not found' });
    }
  });
});

describe('v1 orders of another partner', () => {
  it('are not found, and cannot be canceled, regenerated or simulated', async () => {
    const order = await create(offramp());
    const other = await otherPartner(server);
    const theirs = server.as(other.key);
    const attempts = [
      theirs.GET('/ramp/order/{id}', path(order.id)),
      cancel(order.id, theirs),
      regenerate(order.id, theirs),
      theirs.POST('/sandbox/ramp/order/{id}/simulate', { ...path(order.id), body: { action: 'burnConfirmed' } }),
      deposit(order.id, undefined, theirs),
    ];
    for (const response of await Promise.all(attempts)) expect(expectPlainError(response, 404)).toEqual({ error: 'Order not found' });
    expect(await get(order.id)).toEqual(order);
    await expectEvents(order.id, []);
  });

  it('an unknown order id is 404 too', async () => {
    expect(expectPlainError(await server.api.GET('/ramp/order/{id}', path(crypto.randomUUID())), 404)).toEqual({ error: 'Order not found' });
  });
});

describe('v1 sandbox simulation input', () => {
  it('refuses an unknown action and a non-positive deposit with 400, changing nothing', async () => {
    const order = await create(onramp());
    // An action the contract's enum does not hold.
    expectPlainError(await server.sendRaw('POST', `/sandbox/ramp/order/${order.id}/simulate`, { body: { action: 'teleport' } }), 400);
    expect(expectPlainError(await fiatReceived(order.id, '0'), 400)).toEqual({ error: 'amount must be greater than 0' });
    expect(await get(order.id)).toEqual(order);
    await expectEvents(order.id, []);
  });
});
