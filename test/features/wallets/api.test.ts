import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type RequestBody } from '../../support/api.ts';
import { expectProblem } from '../../support/errors.ts';
import { signerKeys } from '../../support/money.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createCustomer, manualClock, solanaAddress } from '../../support/fixtures.ts';

describe('wallets', () => {
  let server: TestServer;
  const clock = manualClock({ distinctReadings: true });
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server.close());

  const register = (body: RequestBody<'createWallet'>, organizationId = server.partnerId) =>
    server.api.POST('/organization/{organizationId}/wallet', { params: { path: { organizationId } }, body });
  /** A body the contract refuses, sent as it is. */
  const registerRaw = (body: object) => server.sendRaw('POST', `/organization/${server.partnerId}/wallet`, { body });
  const list = async (organizationId = server.partnerId) =>
    expectStatus(await server.api.GET('/organization/{organizationId}/wallets', { params: { path: { organizationId } } }), 200);

  it('register external and embedded wallets, listed oldest first', async () => {
    const customer = await createCustomer(server);
    const keys = signerKeys();
    const external = expectStatus(await register({ custody: 'external', address: solanaAddress(), blockchain: 'solana' }, customer), 201);
    expect(external.signerPublicKey).toBeUndefined();
    clock.advance(10);
    const embedded = expectStatus(await register({ custody: 'embedded', address: `0x${'ab'.repeat(20)}`, blockchain: 'base', signerPublicKey: keys.compressedPublicKey }, customer), 201);
    expect(embedded).toMatchObject({ organizationId: customer, custody: 'embedded', blockchain: 'base', signerPublicKey: keys.compressedPublicKey });
    const page = await list(customer);
    expect(page).toMatchObject({ totalItems: 2, pageNumber: 0, pageSize: 30, totalPages: 1 });
    expect(page.items).toEqual([external, embedded]);
  });

  it('refuse an address the organization already holds on that chain (conflict)', async () => {
    const address = solanaAddress();
    expectStatus(await register({ custody: 'external', address, blockchain: 'solana' }), 201);
    expectProblem(await register({ custody: 'external', address, blockchain: 'solana' }), 409, 'conflict');
    // Another organization may register it.
    expectStatus(await register({ custody: 'external', address, blockchain: 'solana' }, await createCustomer(server)), 201);
  });

  it('need a valid P-256 signer key on embedded wallets only, and an address in the chain notation (validation-error)', async () => {
    const before = (await list()).totalItems;
    // A signer key missing on an embedded wallet, or sent with an external one: bodies the
    // contract's if/then/else forbids, each told as the one field it is about.
    const missing = expectProblem(await registerRaw({ custody: 'embedded', address: solanaAddress(), blockchain: 'solana' }), 400, 'validation-error');
    expect(missing.errors).toEqual([{ pointer: '/signerPublicKey', detail: "must have required property 'signerPublicKey'" }]);
    const extra = expectProblem(await registerRaw({ custody: 'external', address: solanaAddress(), blockchain: 'solana', signerPublicKey: signerKeys().publicKey }), 400, 'validation-error');
    expect(extra.errors).toEqual([{ pointer: '/signerPublicKey', detail: 'must NOT have additional properties' }]);
    const noAddress = expectProblem(await registerRaw({ custody: 'embedded', blockchain: 'solana', signerPublicKey: signerKeys().publicKey }), 400, 'validation-error');
    expect(noAddress.errors).toEqual([{ pointer: '/address', detail: "must have required property 'address'" }]);
    const noCustody = expectProblem(await registerRaw({ address: solanaAddress(), blockchain: 'solana' }), 400, 'validation-error');
    expect(noCustody.errors).toEqual([{ pointer: '/custody', detail: "must have required property 'custody'" }]);
    const offCurve = expectProblem(await register({ custody: 'embedded', address: solanaAddress(), blockchain: 'solana', signerPublicKey: `04${'11'.repeat(64)}` }), 400, 'validation-error');
    expect(offCurve.errors).toEqual([{ pointer: '/signerPublicKey', detail: 'is not a point of the P-256 curve' }]);
    const badAddress = expectProblem(await register({ custody: 'external', address: '0xnothex', blockchain: 'ethereum' }), 400, 'validation-error');
    expect(badAddress.errors[0]!.pointer).toBe('/address');
    expect((await list()).totalItems).toBe(before);
  });

  it('refuse an unknown chain or custody (invalid-request)', async () => {
    // A chain the contract's enum does not hold.
    expectProblem(await registerRaw({ custody: 'external', address: solanaAddress(), blockchain: 'tron' }), 400, 'invalid-request');
    // A custody neither branch of the contract's if/then/else applies to: the enum says which are allowed.
    const custody = expectProblem(await registerRaw({ custody: 'custodial', address: solanaAddress(), blockchain: 'solana' }), 400, 'invalid-request');
    expect(custody.detail).toBe('body/custody: must be equal to one of the allowed values: external, embedded');
  });
});
