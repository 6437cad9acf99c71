import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../../client/index.ts';
import { expectStatus, type RequestBody } from '../../support/api.ts';
import { expectProblem } from '../../support/errors.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { approve, createCustomer, customerClabe, manualClock, readyAccount, solanaAddress } from '../../support/fixtures.ts';

const wallet = solanaAddress();
type QuoteRequest = RequestBody<'createQuote'>;
const onramp = (sourceAmount: string, extra: Partial<QuoteRequest> = {}): QuoteRequest => ({ type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount, rail: 'spei', walletAddress: wallet, ...extra });

describe('quotes', () => {
  let server: TestServer;
  const clock = manualClock({ distinctReadings: true });
  let account: { id: string };

  beforeAll(async () => {
    server = await startTestServer({ clock });
    account = await readyAccount(server, server.partnerId);
  });
  afterAll(() => server.close());

  const quote = (body: QuoteRequest, organizationId = server.partnerId) => server.api.POST('/organization/{organizationId}/quote', { params: { path: { organizationId } }, body });
  /** A body the contract refuses (an unknown type), sent as it is. */
  const quoteRaw = (body: object) => server.sendRaw('POST', `/organization/${server.partnerId}/quote`, { body });

  it('price an onramp from the feed: fee first, then the rate, rounded down; firm for five minutes', async () => {
    const q = expectStatus(await quote(onramp('500')), 201);
    expect(q).toMatchObject({ organizationId: server.partnerId, type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '500.00', fee: '5.00', rail: 'spei', walletAddress: wallet });
    expect(q.paymentAccountId).toBeUndefined();
    expect(q.targetAmount).toBe(new Decimal(q.sourceAmount).minus(q.fee).mul(q.rate).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(6));
    expect(Date.parse(q.expiresAt) - Date.parse(q.createdAt)).toBe(5 * 60_000);
    // The rate is the feed's: about one over the lookup's USD→MXN rate.
    const rates = expectStatus(await server.api.GET('/lookup/exchange_rate'), 200);
    expect(Number(q.rate) * Number(rates.usd_to_mxn!.rate)).toBeCloseTo(1, 2);
  });

  it('price a swap into a bond token, found by mint too, answering its symbol', async () => {
    const cetes = expectStatus(await server.api.GET('/lookup/tokens/cost/{identifier}', { params: { path: { identifier: 'CETES' } } }), 200);
    const bySymbol = expectStatus(await quote({ type: 'swap', sourceAsset: 'usdc', targetAsset: 'cetes', sourceAmount: '100', walletAddress: wallet }), 201);
    expect(bySymbol).toMatchObject({ sourceAsset: 'USDC', targetAsset: 'CETES', fee: '0.100000' });
    expect(bySymbol.rail).toBeUndefined();
    expect(Number(bySymbol.rate) * Number(cetes.token_cost_in_usd)).toBeCloseTo(1, 3);
    const byMint = expectStatus(await quote({ type: 'swap', sourceAsset: 'USDC', targetAsset: cetes.token_mint, sourceAmount: '100', walletAddress: wallet }), 201);
    expect(byMint.targetAsset).toBe('CETES');
  });

  it('price an offramp to a ready payment account', async () => {
    const created = expectStatus(await quote({ type: 'offramp', sourceAsset: 'USDC', targetAsset: 'MXN', sourceAmount: '100', rail: 'spei', paymentAccountId: account.id, walletAddress: wallet }), 201);
    expect(created).toMatchObject({ type: 'offramp', sourceAmount: '100.000000', fee: '0.500000', paymentAccountId: account.id });
    expect(created.targetAmount).toMatch(/^\d+\.\d{2}$/);
  });

  it('refuse fields the route needs or does not take (validation-error, every field at once)', async () => {
    const offramp = expectProblem(await quote({ type: 'offramp', sourceAsset: 'USDC', targetAsset: 'MXN', sourceAmount: '100' }), 400, 'validation-error');
    expect(offramp.errors.map((e) => e.pointer).sort()).toEqual(['/paymentAccountId', '/rail', '/walletAddress']);
    const swap = expectProblem(await quote({ type: 'swap', sourceAsset: 'USDC', targetAsset: 'CETES', sourceAmount: '100', walletAddress: wallet, rail: 'spei', paymentAccountId: account.id }), 400, 'validation-error');
    expect(swap.errors.map((e) => e.pointer).sort()).toEqual(['/paymentAccountId', '/rail']);
  });

  it('refuse a non-positive amount, one finer than the asset, or an unknown type (invalid-request)', async () => {
    expectProblem(await quote(onramp('0')), 400, 'invalid-request');
    expectProblem(await quote(onramp('-5')), 400, 'invalid-request');
    expectProblem(await quote(onramp('10.001')), 400, 'invalid-request');
    expectProblem(await quoteRaw({ ...onramp('10'), type: 'bridge' }), 400, 'invalid-request');
  });

  it('hold amounts to the rail limits (amount-out-of-range)', async () => {
    const low = expectProblem(await quote(onramp('0.50')), 400, 'amount-out-of-range');
    expect(low.detail).toMatch(/minimum of 1.00 MXN/);
    // 40 000 USDC pays out far more than the SPEI maximum of 500 000 MXN.
    const high = expectProblem(await quote({ type: 'offramp', sourceAsset: 'USDC', targetAsset: 'MXN', sourceAmount: '40000', rail: 'spei', paymentAccountId: account.id, walletAddress: wallet }), 400, 'amount-out-of-range');
    expect(high.detail).toMatch(/maximum of 500000.00 MXN/);
  });

  it('limit sandbox onramps to 500 MXN per quote (sandbox-limit-exceeded)', async () => {
    expectStatus(await quote(onramp('500.00')), 201);
    expectProblem(await quote(onramp('500.01')), 400, 'sandbox-limit-exceeded');
  });

  it('refuse routes no rail carries (unsupported)', async () => {
    expectProblem(await quote({ ...onramp('10'), sourceAsset: 'XYZ' }), 422, 'unsupported');
    expectProblem(await quote({ ...onramp('10'), sourceAsset: 'BRL' }), 422, 'unsupported');
    expectProblem(await quote({ ...onramp('10'), sourceAsset: 'USDC', targetAsset: 'CETES' }), 422, 'unsupported');
    expectProblem(await quote({ type: 'swap', sourceAsset: 'USDC', targetAsset: 'usdc', sourceAmount: '1', walletAddress: wallet }), 422, 'unsupported');
  });

  it('need the payment account ready as a destination, and not disabled', async () => {
    const organizationId = server.partnerId;
    const pending = expectStatus(await server.api.POST('/organization/{organizationId}/payment_account', {
      params: { path: { organizationId } },
      body: { kind: 'bankAccount', rail: 'spei', accountDetails: { clabe: customerClabe() }, registrationInfo: { accountHolderName: 'María', taxId: 'GOMM900101AB3' } },
    }), 201);
    const offramp = (paymentAccountId: string) => quote({ type: 'offramp', sourceAsset: 'USDC', targetAsset: 'MXN', sourceAmount: '10', rail: 'spei', paymentAccountId, walletAddress: wallet });
    expectProblem(await offramp(pending.id), 409, 'payment-account-not-ready');
    expectStatus(await server.api.POST('/sandbox/organization/{organizationId}/payment_account/{id}/simulate', { params: { path: { organizationId, id: pending.id } }, body: { action: 'disable' } }), 200);
    expectProblem(await offramp(pending.id), 409, 'payment-account-disabled');
    expectProblem(await offramp(crypto.randomUUID()), 404, 'not-found');
  });

  it('need the organization approved (organization-not-approved)', async () => {
    const person = await createCustomer(server);
    expectProblem(await quote(onramp('100'), person), 409, 'organization-not-approved');
    await approve(server, person);
    expectStatus(await quote(onramp('100'), person), 201);
  });

  it('are not made for an organization the key cannot act for', async () => {
    expectProblem(await quote(onramp('100'), crypto.randomUUID()), 404, 'not-found');
  });

  // listQuotes (designed): every quote of the organization, newest first, expired ones included.
  it('are listed newest first with their expiry, expired ones too, per organization', async () => {
    const person = await createCustomer(server);
    await approve(server, person);
    const made: Schema<'Quote'>[] = [];
    for (const amount of ['101', '102', '103']) {
      made.unshift(expectStatus(await quote(onramp(amount), person), 201));
      clock.advance(4 * 60_000);
    }
    const list = (organizationId: string, query: { pageSize?: number; pageNumber?: number } = {}) =>
      server.api.GET('/organization/{organizationId}/quotes', { params: { path: { organizationId }, query } });
    const all = expectStatus(await list(person), 200);
    expect(all).toMatchObject({ totalItems: 3, pageSize: 30, pageNumber: 0, totalPages: 1 });
    // Each exactly as createQuote answered it; the first two are past their expiresAt on this clock.
    expect(all.items).toEqual(made);
    expect(all.items.filter((q) => Date.parse(q.expiresAt) <= clock.now().getTime())).toHaveLength(2);
    expect(expectStatus(await list(person, { pageSize: 2, pageNumber: 1 }), 200)).toMatchObject({ totalItems: 3, totalPages: 2, items: [made[2]] });
    // The partner's own quotes are its own list.
    expect(all.items.every((q) => q.organizationId === person)).toBe(true);
    expect(expectStatus(await list(server.partnerId), 200).items.some((q) => q.quoteId === made[0]!.quoteId)).toBe(false);
  });

  it('are not listed for an organization the key cannot act for, nor with a page size out of range', async () => {
    expectProblem(await server.api.GET('/organization/{organizationId}/quotes', { params: { path: { organizationId: crypto.randomUUID() } } }), 404, 'not-found');
    expectProblem(await server.sendRaw('GET', `/organization/${server.partnerId}/quotes?pageSize=101`), 400, 'invalid-request');
  });
});

describe('quotes while the price feed is cold', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_PRICES_WARMUP_MS: String(3_600_000) } });
  });
  afterAll(() => server.close());

  it('are quote-unavailable (retry later)', async () => {
    const refused = await server.api.POST('/organization/{organizationId}/quote', { params: { path: { organizationId: server.partnerId } }, body: onramp('100') });
    expectProblem(refused, 422, 'quote-unavailable');
  });
});

describe('quotes in production', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_ENV: 'production' } });
  });
  afterAll(() => server.close());

  it('have no sandbox onramp limit', async () => {
    const created = expectStatus(await server.api.POST('/organization/{organizationId}/quote', { params: { path: { organizationId: server.partnerId } }, body: onramp('750') }), 201);
    expect(created.sourceAmount).toBe('750.00');
  });
});
