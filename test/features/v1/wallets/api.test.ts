/** v1 wallets over HTTP: custody rules, chains, duplicates and scoping. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsChain } from '../../../../server/shared/world.ts';
import { expectStatus, type RequestBody } from '../../../support/api.ts';
import { expectPlainError } from '../../../support/errors.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { count, randomSolanaAddress, signerPublicKey, solanaAddress, stellarAddress } from '../../../support/v1Money.ts';
import { createCustomer, otherPartner } from '../../../support/fixtures.ts';

let server: TestServer;
let customer: string;

beforeAll(async () => {
  server = await startTestServer();
  customer = await createCustomer(server);
});
afterAll(() => server.close());

type WalletRequest = RequestBody<'v1CreateWallet'>;
const register = (body: Omit<WalletRequest, 'customerId'> & { customerId?: string }, key?: string) =>
  (key ? server.as(key) : server.api).POST('/ramp/wallet', { body: { customerId: customer, ...body } });
const read = (id: string, key?: string) => (key ? server.as(key) : server.api).GET('/ramp/wallet/{id}', { params: { path: { id } } });

describe('v1 wallets', () => {
  it.each([
    ['solana', solanaAddress],
    ['stellar', stellarAddress],
  ] as const)('register an external %s wallet by address, readable by its GET', async (blockchain, address) => {
    const created = expectStatus(await register({ custody: 'external', blockchain, address }), 201);
    expect(created).toEqual({
      id: expect.any(String),
      customerId: customer,
      address,
      blockchain,
      custody: 'external',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(expectStatus(await read(created.id), 200)).toEqual(created);
  });

  it.each(['solana', 'stellar'] as const)('register an embedded %s wallet, its address assigned by the service', async (blockchain) => {
    const created = expectStatus(await register({ custody: 'embedded', blockchain, signerPublicKey }), 201);
    expect(created).toMatchObject({ custody: 'embedded', blockchain, signerPublicKey });
    expect(fitsChain(created.address, blockchain)).toBe(true);
    // Wallets need no verified customer: the customer here is not approved.
  });

  it('refuse the same address twice for a customer and chain, but not for another customer', async () => {
    const address = randomSolanaAddress();
    expectStatus(await register({ custody: 'external', blockchain: 'solana', address }), 201);
    const before = await count(server, 'v1_wallets');
    expect(expectPlainError(await register({ custody: 'external', blockchain: 'solana', address }), 409)).toEqual({ error: 'Wallet already registered' });
    expect(await count(server, 'v1_wallets')).toBe(before);
    const other = await createCustomer(server);
    expectStatus(await register({ customerId: other, custody: 'external', blockchain: 'solana', address }), 201);
  });

  it('keep one registration when the same address arrives many times at once', async () => {
    const address = randomSolanaAddress();
    const responses = await Promise.all(Array.from({ length: 8 }, () => register({ custody: 'external', blockchain: 'solana', address })));
    expect(responses.map((r) => r.response.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
  });

  const refusals: [string, Omit<WalletRequest, 'customerId'>, string][] = [
    ['an external wallet without address', { custody: 'external', blockchain: 'solana' }, 'address is required for an external wallet'],
    ['an external wallet with a signer key', { custody: 'external', blockchain: 'solana', address: solanaAddress, signerPublicKey }, 'signerPublicKey is only allowed for an embedded wallet'],
    ['an embedded wallet without signer key', { custody: 'embedded', blockchain: 'solana' }, 'signerPublicKey is required for an embedded wallet'],
    ['an embedded wallet with an address', { custody: 'embedded', blockchain: 'stellar', address: stellarAddress, signerPublicKey }, 'address is not allowed for an embedded wallet; the service assigns it'],
    ['a Stellar address on Solana', { custody: 'external', blockchain: 'solana', address: stellarAddress }, 'address is not a valid solana address'],
    ['a Solana address on Stellar', { custody: 'external', blockchain: 'stellar', address: solanaAddress }, 'address is not a valid stellar address'],
    ['a Stellar address with a wrong checksum', { custody: 'external', blockchain: 'stellar', address: `${stellarAddress.slice(0, -1)}6` }, 'address is not a valid stellar address'],
    ['a signer key off the curve', { custody: 'embedded', blockchain: 'solana', signerPublicKey: `04${'11'.repeat(64)}` }, 'signerPublicKey is not a P-256 public key'],
  ];

  it.each(refusals)('refuse %s with 400', async (_name, body, error) => {
    const before = await count(server, 'v1_wallets');
    expect(expectPlainError(await register(body), 400)).toEqual({ error });
    expect(await count(server, 'v1_wallets')).toBe(before);
  });

  it('refuse a chain or custody the contract does not know', async () => {
    // Values the contract's enums do not hold.
    for (const body of [{ custody: 'external', blockchain: 'ethereum', address: solanaAddress }, { custody: 'custodial', blockchain: 'solana', address: solanaAddress }]) {
      expectPlainError(await server.sendRaw('POST', '/ramp/wallet', { body: { customerId: customer, ...body } }), 400, JSON.stringify(body));
    }
  });

  it('are only the key\'s customers\': another partner gets 404 for the customer and the wallet', async () => {
    const created = expectStatus(await register({ custody: 'external', blockchain: 'solana', address: randomSolanaAddress() }), 201);
    const other = await otherPartner(server);
    const before = await count(server, 'v1_wallets');
    expect(expectPlainError(await register({ custody: 'external', blockchain: 'solana', address: solanaAddress }, other.key), 404)).toEqual({ error: 'Customer not found' });
    expect(await count(server, 'v1_wallets')).toBe(before);
    expect(expectPlainError(await read(created.id, other.key), 404)).toEqual({ error: 'Wallet not found' });
  });
});
