import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/errors.ts';
import { addCustomer, manualClock, signerKeys, solanaAddress } from '../support/money.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('wallets', () => {
  let server: TestServer;
  const clock = manualClock();
  let base: string;
  beforeAll(async () => {
    server = await startTestServer({ clock });
    base = `/organization/${server.partnerId}`;
  });
  afterAll(() => server.close());

  const register = (body: object, organizationId = server.partnerId) => server.call('POST', `/organization/${organizationId}/wallet`, { body });

  it('register external and embedded wallets, listed oldest first', async () => {
    const customer = await addCustomer(server);
    const keys = signerKeys();
    const external = await register({ custody: 'external', address: solanaAddress(), blockchain: 'solana' }, customer);
    expect(external.status).toBe(201);
    expect(external.json_.signerPublicKey).toBeUndefined();
    clock.advance(10);
    const embedded = await register({ custody: 'embedded', address: `0x${'ab'.repeat(20)}`, blockchain: 'base', signerPublicKey: keys.compressedPublicKey }, customer);
    expect(embedded.status).toBe(201);
    expect(embedded.json_).toMatchObject({ organizationId: customer, custody: 'embedded', blockchain: 'base', signerPublicKey: keys.compressedPublicKey });
    const page = await server.call('GET', `/organization/${customer}/wallets`);
    expect(page.json_).toMatchObject({ totalItems: 2, pageNumber: 0, pageSize: 30, totalPages: 1 });
    expect(page.json_.items).toEqual([external.json_, embedded.json_]);
  });

  it('refuse an address the organization already holds on that chain (conflict)', async () => {
    const address = solanaAddress();
    expect((await register({ custody: 'external', address, blockchain: 'solana' })).status).toBe(201);
    expectProblem(await register({ custody: 'external', address, blockchain: 'solana' }), 409, 'conflict');
    // Another organization may register it.
    expect((await register({ custody: 'external', address, blockchain: 'solana' }, await addCustomer(server))).status).toBe(201);
  });

  it('need a valid P-256 signer key on embedded wallets only, and an address in the chain notation (validation-error)', async () => {
    const before = (await server.call('GET', `${base}/wallets`)).json_.totalItems;
    expectProblem(await register({ custody: 'embedded', address: solanaAddress(), blockchain: 'solana' }), 400, 'validation-error');
    expectProblem(await register({ custody: 'external', address: solanaAddress(), blockchain: 'solana', signerPublicKey: signerKeys().publicKey }), 400, 'validation-error');
    const offCurve = await register({ custody: 'embedded', address: solanaAddress(), blockchain: 'solana', signerPublicKey: `04${'11'.repeat(64)}` });
    expectProblem(offCurve, 400, 'validation-error');
    expect(offCurve.json_.errors).toEqual([{ pointer: '/signerPublicKey', detail: 'is not a point of the P-256 curve' }]);
    const badAddress = await register({ custody: 'external', address: '0xnothex', blockchain: 'ethereum' });
    expectProblem(badAddress, 400, 'validation-error');
    expect(badAddress.json_.errors[0].pointer).toBe('/address');
    expect((await server.call('GET', `${base}/wallets`)).json_.totalItems).toBe(before);
  });

  it('refuse an unknown chain (invalid-request)', async () => {
    expectProblem(await register({ custody: 'external', address: solanaAddress(), blockchain: 'tron' }), 400, 'invalid-request');
  });
});
