/**
 * v1 swaps over HTTP through every branch (V1SwapStatus), with `swap_updated`
 * in the outbox, and every refusal with its documented status and body.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectPlainError } from '../support/errors.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { count, createWallet } from '../support/v1Money.ts';
import { createCustomer, manualClock, otherPartner, v1Events } from '../support/fixtures.ts';

const clock = manualClock({ start: '2026-03-02T15:00:00.000Z' });
let server: TestServer;
let customer: string;
let wallet: any;

beforeAll(async () => {
  server = await startTestServer({ clock });
  customer = await createCustomer(server, { approved: true });
  wallet = await createWallet(server, customer);
});
afterAll(() => server.close());
beforeEach(() => clock.advance(1000));

const swapBody = (o: Record<string, unknown> = {}) => ({ customerId: customer, walletId: wallet.id, sourceToken: 'CETES', targetToken: 'USDC', sourceAmount: '50.000000', ...o });

async function create(o: Record<string, unknown> = {}) {
  const response = await server.call('POST', '/ramp/swap', { body: swapBody(o) });
  expect(response.status, response.text_).toBe(201);
  return response.json_;
}

const get = async (id: string) => (await server.call('GET', `/ramp/swap/${id}`)).json_;
/** Each simulated step a second after the last, so events and updatedAt are ordered. */
const simulate = (id: string, action: string) => (clock.advance(1000), server.call('POST', `/sandbox/ramp/swap/${id}/simulate`, { body: { action } }));

async function expectEvents(id: string, statuses: string[]) {
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
    expect(Buffer.from(swap.sendTransaction, 'base64').length).toBeGreaterThan(64);
    expect(swap).not.toHaveProperty('sendTransactionHash');
    expect(swap).not.toHaveProperty('receiveTransactionHash');
    await expectEvents(swap.id, []);

    const funded = await simulate(swap.id, 'sendConfirmed');
    expect(funded.status).toBe(200);
    expect(funded.json_.status).toBe('funded');
    expect(funded.json_.sendTransactionHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,88}$/);
    expect(funded.json_.sendTransaction).toBe(swap.sendTransaction);
    expect(funded.json_).not.toHaveProperty('receiveTransactionHash');
    await expectEvents(swap.id, ['funded']);

    clock.advance(1000);
    const received = await simulate(swap.id, 'fundsReceived');
    expect(received.json_.status).toBe('funded');
    const events = await expectEvents(swap.id, ['funded', 'funded']);
    expect(events[1]!.entity.updatedAt > events[0]!.entity.updatedAt).toBe(true);

    clock.advance(1000);
    const completed = await simulate(swap.id, 'delivered');
    expect(completed.json_).toMatchObject({ status: 'completed', sendTransactionHash: funded.json_.sendTransactionHash, sendTransaction: swap.sendTransaction });
    expect(completed.json_.receiveTransactionHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,88}$/);
    await expectEvents(swap.id, ['funded', 'funded', 'completed']);
    for (const action of ['sendConfirmed', 'fundsReceived', 'delivered', 'fail', 'expireTransaction']) expect((await simulate(swap.id, action)).status, action).toBe(409);
    await expectEvents(swap.id, ['funded', 'funded', 'completed']);
  });

  it('completes without the distinct funds update too (chains that send none)', async () => {
    const swap = await create();
    await simulate(swap.id, 'sendConfirmed');
    expect((await simulate(swap.id, 'delivered')).json_.status).toBe('completed');
    await expectEvents(swap.id, ['funded', 'completed']);
  });

  it('fails from created', async () => {
    const swap = await create();
    expect((await simulate(swap.id, 'fail')).json_.status).toBe('failed');
    await expectEvents(swap.id, ['failed']);
    expect((await simulate(swap.id, 'sendConfirmed')).status).toBe(409);
  });

  it('fails from funded', async () => {
    const swap = await create();
    await simulate(swap.id, 'sendConfirmed');
    expect((await simulate(swap.id, 'fail')).json_.status).toBe('failed');
    await expectEvents(swap.id, ['funded', 'failed']);
  });

  it('cannot be confirmed with an expired send transaction until it is regenerated; not regenerated once funded', async () => {
    const swap = await create();
    const expired = await simulate(swap.id, 'expireTransaction');
    expect(expired.status).toBe(200);
    expect(expired.json_).toEqual(swap);
    const confirm = await simulate(swap.id, 'sendConfirmed');
    expect(confirm.status).toBe(409);
    expect(confirm.json_).toEqual({ error: 'The send transaction has expired; regenerate it first' });
    await expectEvents(swap.id, []);

    const fresh = await server.call('POST', `/ramp/swap/${swap.id}/regenerate_tx`);
    expect(fresh.status).toBe(200);
    expect(fresh.json_.sendTransaction).not.toBe(swap.sendTransaction);
    expect(fresh.json_.status).toBe('created');
    expect(await get(swap.id)).toEqual(fresh.json_);
    await expectEvents(swap.id, []);

    expect((await simulate(swap.id, 'sendConfirmed')).json_.status).toBe('funded');
    const late = await server.call('POST', `/ramp/swap/${swap.id}/regenerate_tx`);
    expect(late.status).toBe(409);
    expect(late.json_).toEqual({ error: 'The transaction can only be regenerated while the swap is created' });
  });

  it('refuses the actions of a later status while created', async () => {
    const swap = await create();
    for (const action of ['delivered', 'fundsReceived']) {
      const response = await simulate(swap.id, action);
      expect(response.status).toBe(409);
      expect(response.json_).toEqual({ error: `Action ${action} does not apply to a swap in status created` });
    }
    expect(await get(swap.id)).toEqual(swap);
    await expectEvents(swap.id, []);
  });

  it('from a Stellar wallet carries Stellar hashes', async () => {
    const stellar = await createWallet(server, customer, 'embedded', 'stellar');
    const swap = await create({ walletId: stellar.id });
    expect(Buffer.from(swap.sendTransaction, 'base64').subarray(0, 4)).toEqual(Buffer.from([0, 0, 0, 2]));
    expect((await simulate(swap.id, 'sendConfirmed')).json_.sendTransactionHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('v1 swap creation refuses', () => {
  let unapproved: string;
  let otherWallet: any;
  beforeAll(async () => {
    unapproved = await createCustomer(server);
    otherWallet = await createWallet(server, await createCustomer(server, { approved: true }));
  });

  const cases: [string, () => Record<string, unknown>, number, string][] = [
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
    const response = await server.call('POST', '/ramp/swap', { body: body() });
    expect(response.status).toBe(status);
    expect(response.json_).toEqual({ error });
    expect(await count(server, 'v1_swaps')).toBe(before);
  });

  it('a customer whose KYC is not approved', async () => {
    const own = await createWallet(server, unapproved);
    const before = await count(server, 'v1_swaps');
    const response = await server.call('POST', '/ramp/swap', { body: swapBody({ customerId: unapproved, walletId: own.id }) });
    expect(response.status).toBe(409);
    expect(response.json_).toEqual({ error: 'Customer KYC is not approved' });
    expect(await count(server, 'v1_swaps')).toBe(before);
  });

  it('a body the contract refuses', async () => {
    const before = await count(server, 'v1_swaps');
    const response = await server.call('POST', '/ramp/swap', { body: { customerId: customer, walletId: wallet.id } });
    expectPlainError(response, 400);
    expect(await count(server, 'v1_swaps')).toBe(before);
  });
});

describe('v1 swaps of another partner', () => {
  it('are not found, and cannot be regenerated or simulated', async () => {
    const swap = await create();
    const other = await otherPartner(server);
    const responses = await Promise.all([
      server.call('GET', `/ramp/swap/${swap.id}`, { key: other.key }),
      server.call('POST', `/ramp/swap/${swap.id}/regenerate_tx`, { key: other.key }),
      server.call('POST', `/sandbox/ramp/swap/${swap.id}/simulate`, { key: other.key, body: { action: 'sendConfirmed' } }),
    ]);
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(response.json_).toEqual({ error: 'Swap not found' });
    }
    expect(await get(swap.id)).toEqual(swap);
  });
});
