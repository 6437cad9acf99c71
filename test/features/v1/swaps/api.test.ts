/**
 * v1 swaps over HTTP through every branch (V1SwapStatus), with `swap_updated`
 * in the outbox, and every refusal with its documented status and body.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../../../client/index.ts';
import { expectStatus, type Api, type RequestBody } from '../../../support/api.ts';
import { expectPlainError } from '../../../support/errors.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { count, createWallet } from '../../../support/v1Money.ts';
import { createCustomer, manualClock, otherPartner, v1Events } from '../../../support/fixtures.ts';

const clock = manualClock({ start: '2026-03-02T15:00:00.000Z' });
let server: TestServer;
let customer: string;
let wallet: Schema<'V1Wallet'>;

beforeAll(async () => {
  server = await startTestServer({ clock });
  customer = await createCustomer(server, { approved: true });
  wallet = await createWallet(server, customer);
});
afterAll(() => server.close());
beforeEach(() => clock.advance(1000));

type SwapRequest = RequestBody<'v1CreateSwap'>;
type Action = RequestBody<'v1SimulateSwap'>['action'];
const swapBody = (o: Partial<SwapRequest> = {}): SwapRequest => ({ customerId: customer, walletId: wallet.id, sourceToken: 'CETES', targetToken: 'USDC', sourceAmount: '50.000000', ...o });

const post = (body: SwapRequest) => server.api.POST('/ramp/swap', { body });
const create = async (o: Partial<SwapRequest> = {}) => expectStatus(await post(swapBody(o)), 201);
const path = (id: string) => ({ params: { path: { id } } });
const get = async (id: string) => expectStatus(await server.api.GET('/ramp/swap/{id}', path(id)), 200);
const regenerate = (id: string, api: Api = server.api) => api.POST('/ramp/swap/{id}/regenerate_tx', path(id));
/** Each simulated step a second after the last, so events and updatedAt are ordered. */
const simulate = (id: string, action: Action, api: Api = server.api) => (clock.advance(1000), api.POST('/sandbox/ramp/swap/{id}/simulate', { ...path(id), body: { action } }));
const simulated = async (id: string, action: Action) => expectStatus(await simulate(id, action), 200);

async function expectEvents(id: string, statuses: Schema<'V1SwapStatus'>[]) {
  const events = await v1Events(server, 'swap_updated', id);
  expect(events.map((e) => e.entity.status)).toEqual(statuses);
  for (const e of events) expect(e).toMatchObject({ partnerId: server.partnerId, organizationId: customer });
  if (events.length) expect(events.at(-1)!.entity).toEqual(await get(id));
  return events;
}

describe('a v1 swap', () => {
  it('is created with its send transaction, funded with the send hash, completed with the receive hash', async () => {
    const swap = await create();
    expect(swap).toMatchObject({ customerId: customer, status: 'created', sourceToken: 'CETES', targetToken: 'USDC', sourceAmount: '50.000000' });
    expect(Buffer.from(swap.sendTransaction!, 'base64').length).toBeGreaterThan(64);
    expect(swap).not.toHaveProperty('sendTransactionHash');
    expect(swap).not.toHaveProperty('receiveTransactionHash');
    await expectEvents(swap.id, []);

    const funded = await simulated(swap.id, 'sendConfirmed');
    expect(funded.status).toBe('funded');
    expect(funded.sendTransactionHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,88}$/);
    expect(funded.sendTransaction).toBe(swap.sendTransaction);
    expect(funded).not.toHaveProperty('receiveTransactionHash');
    await expectEvents(swap.id, ['funded']);

    clock.advance(1000);
    expect((await simulated(swap.id, 'fundsReceived')).status).toBe('funded');
    const events = await expectEvents(swap.id, ['funded', 'funded']);
    expect(events[1]!.entity.updatedAt > events[0]!.entity.updatedAt).toBe(true);

    clock.advance(1000);
    const completed = await simulated(swap.id, 'delivered');
    expect(completed).toMatchObject({ status: 'completed', sendTransactionHash: funded.sendTransactionHash, sendTransaction: swap.sendTransaction });
    expect(completed.receiveTransactionHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,88}$/);
    await expectEvents(swap.id, ['funded', 'funded', 'completed']);
    for (const action of ['sendConfirmed', 'fundsReceived', 'delivered', 'fail', 'expireTransaction'] as const) expectPlainError(await simulate(swap.id, action), 409, action);
    await expectEvents(swap.id, ['funded', 'funded', 'completed']);
  });

  it('completes without the distinct funds update too (chains that send none)', async () => {
    const swap = await create();
    await simulated(swap.id, 'sendConfirmed');
    expect((await simulated(swap.id, 'delivered')).status).toBe('completed');
    await expectEvents(swap.id, ['funded', 'completed']);
  });

  it('fails from created', async () => {
    const swap = await create();
    expect((await simulated(swap.id, 'fail')).status).toBe('failed');
    await expectEvents(swap.id, ['failed']);
    expectPlainError(await simulate(swap.id, 'sendConfirmed'), 409);
  });

  it('fails from funded', async () => {
    const swap = await create();
    await simulated(swap.id, 'sendConfirmed');
    expect((await simulated(swap.id, 'fail')).status).toBe('failed');
    await expectEvents(swap.id, ['funded', 'failed']);
  });

  it('cannot be confirmed with an expired send transaction until it is regenerated; not regenerated once funded', async () => {
    const swap = await create();
    expect(await simulated(swap.id, 'expireTransaction')).toEqual(swap);
    expect(expectPlainError(await simulate(swap.id, 'sendConfirmed'), 409)).toEqual({ error: 'The send transaction has expired; regenerate it first' });
    await expectEvents(swap.id, []);

    const fresh = expectStatus(await regenerate(swap.id), 200);
    expect(fresh.sendTransaction).not.toBe(swap.sendTransaction);
    expect(fresh.status).toBe('created');
    expect(await get(swap.id)).toEqual(fresh);
    await expectEvents(swap.id, []);

    expect((await simulated(swap.id, 'sendConfirmed')).status).toBe('funded');
    expect(expectPlainError(await regenerate(swap.id), 409)).toEqual({ error: 'The transaction can only be regenerated while the swap is created' });
  });

  it('refuses the actions of a later status while created', async () => {
    const swap = await create();
    for (const action of ['delivered', 'fundsReceived'] as const) {
      expect(expectPlainError(await simulate(swap.id, action), 409, action)).toEqual({ error: `Action ${action} does not apply to a swap in status created` });
    }
    expect(await get(swap.id)).toEqual(swap);
    await expectEvents(swap.id, []);
  });

  it('from a Stellar wallet carries Stellar hashes', async () => {
    const stellar = await createWallet(server, customer, 'embedded', 'stellar');
    const swap = await create({ walletId: stellar.id });
    expect(Buffer.from(swap.sendTransaction!, 'base64').subarray(0, 4)).toEqual(Buffer.from([0, 0, 0, 2]));
    expect((await simulated(swap.id, 'sendConfirmed')).sendTransactionHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('v1 swap creation refuses', () => {
  let unapproved: string;
  let otherWallet: Schema<'V1Wallet'>;
  beforeAll(async () => {
    unapproved = await createCustomer(server);
    otherWallet = await createWallet(server, await createCustomer(server, { approved: true }));
  });

  const cases: [string, () => SwapRequest, number, string][] = [
    ['the same token on both sides', () => swapBody({ targetToken: 'CETES' }), 400, 'sourceToken and targetToken must differ'],
    ['an unknown source token', () => swapBody({ sourceToken: 'XYZ' }), 400, 'Unknown token XYZ'],
    ['an unknown target token', () => swapBody({ targetToken: 'MXN' }), 400, 'Unknown token MXN'],
    ['a zero amount', () => swapBody({ sourceAmount: '0.000000' }), 400, 'sourceAmount must be greater than 0'],
    ['an unknown customer', () => swapBody({ customerId: crypto.randomUUID() }), 404, 'Customer not found'],
    ['another customer\'s wallet', () => swapBody({ walletId: otherWallet.id }), 404, 'Wallet not found'],
    ['an unknown wallet', () => swapBody({ walletId: crypto.randomUUID() }), 404, 'Wallet not found'],
  ];

  it.each(cases)('%s', async (_name, body, status, error) => {
    const before = await count(server, 'v1_swaps');
    expect(expectPlainError(await post(body()), status)).toEqual({ error });
    expect(await count(server, 'v1_swaps')).toBe(before);
  });

  it('a customer whose KYC is not approved', async () => {
    const own = await createWallet(server, unapproved);
    const before = await count(server, 'v1_swaps');
    expect(expectPlainError(await post(swapBody({ customerId: unapproved, walletId: own.id })), 409)).toEqual({ error: 'Customer KYC is not approved' });
    expect(await count(server, 'v1_swaps')).toBe(before);
  });

  it('a body the contract refuses', async () => {
    const before = await count(server, 'v1_swaps');
    // Tokens and amount missing.
    expectPlainError(await server.sendRaw('POST', '/ramp/swap', { body: { customerId: customer, walletId: wallet.id } }), 400);
    expect(await count(server, 'v1_swaps')).toBe(before);
  });
});

describe('v1 swaps of another partner', () => {
  it('are not found, and cannot be regenerated or simulated', async () => {
    const swap = await create();
    const other = await otherPartner(server);
    const theirs = server.as(other.key);
    const responses = await Promise.all([theirs.GET('/ramp/swap/{id}', path(swap.id)), regenerate(swap.id, theirs), simulate(swap.id, 'sendConfirmed', theirs)]);
    for (const response of responses) expect(expectPlainError(response, 404)).toEqual({ error: 'Swap not found' });
    expect(await get(swap.id)).toEqual(swap);
  });
});
