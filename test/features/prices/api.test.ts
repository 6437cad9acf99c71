import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPricesFile } from '../../../server/config.ts';
import { expectStatus, type Api } from '../../support/api.ts';
import { loadBundle } from '../../support/documents.ts';
import { expectPlainError } from '../../support/errors.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { eventually, waitBudget } from '../../support/wait.ts';

describe('lookups', () => {
  let server: TestServer;
  /** Lookups are public: the typed client without a key. */
  let lookup: Api;
  const dir = mkdtempSync(join(tmpdir(), 'ramp-prices-'));
  const pricesFile = join(dir, 'prices.json');
  beforeAll(async () => {
    copyFileSync(defaultPricesFile, pricesFile);
    server = await startTestServer({ env: { RAMP_PRICES_FILE: pricesFile } });
    lookup = server.as(null);
  });
  const tokenCosts = async (maxAge?: number) => expectStatus(await lookup.GET('/lookup/tokens/cost', { params: { query: maxAge === undefined ? {} : { max_age: maxAge } } }), 200);
  const tokenCost = (identifier: string) => lookup.GET('/lookup/tokens/cost/{identifier}', { params: { path: { identifier } } });
  afterAll(() => server.close());

  it('are public: no key needed', async () => {
    expectStatus(await lookup.GET('/lookup/tokens/cost'), 200);
  });

  it('price every token keyed by uppercased symbol, bonds and principal tokens alike', async () => {
    const costs = await tokenCosts();
    expect(Object.keys(costs)).toEqual(expect.arrayContaining(['CETES', 'USTRY', 'PTCETES27']));
    const cetes = costs.CETES!;
    expect(cetes).toMatchObject({ token_symbol: 'CETES', token_kind: 'bond', currency: 'MXN', current_basis_points: 1045 });
    expect(cetes.payment_mint).toBeDefined();
    expect(cetes.underlying_bond_symbol).toBeUndefined();
    expect(Number(cetes.token_cost_in_fiat)).toBeGreaterThan(1);
    expect(Number(cetes.token_cost_in_usd)).toBeCloseTo(Number(cetes.token_cost_in_fiat) / Number(cetes.fiat_exchange_rate_with_usd), 4);
    expect(Object.keys(cetes.sources).length).toBeGreaterThanOrEqual(2);
    for (const source of Object.values(cetes.sources)) expect(Number.isInteger(source.updated_at)).toBe(true);
    const pt = costs.PTCETES27!;
    expect(pt).toMatchObject({ token_kind: 'principal_token', underlying_bond_symbol: 'CETES' });
    expect(pt.payment_mint).toBeUndefined();
    // A principal token trades below its bond.
    expect(Number(pt.token_cost_in_fiat)).toBeLessThan(Number(cetes.token_cost_in_fiat));
  });

  it('find one token by symbol in any case or by mint, and 404 an unknown one', async () => {
    const bySymbol = expectStatus(await tokenCost('cEtEs'), 200);
    expect(expectStatus(await tokenCost(bySymbol.token_mint), 200).token_symbol).toBe('CETES');
    expect(expectPlainError(await tokenCost('NOPE'), 404).error).toContain('NOPE');
  });

  it('leave out sources older than max_age, and refuse a max_age that is not an integer >= 0', async () => {
    const all = await tokenCosts();
    const fresh = await tokenCosts(10);
    const now = Math.floor(Date.now() / 1000);
    let left = 0;
    for (const [symbol, cost] of Object.entries(all)) {
      for (const [provider, source] of Object.entries(cost.sources)) {
        const kept = provider in fresh[symbol]!.sources;
        if (source.updated_at < now - 11) expect(kept, `${symbol} ${provider}`).toBe(false);
        if (source.updated_at >= now - 9) expect(kept, `${symbol} ${provider}`).toBe(true);
        if (!kept) left++;
      }
      // max_age filters the sources, never the prices.
      expect(fresh[symbol]!.token_cost_in_fiat.slice(0, 6)).toBe(cost.token_cost_in_fiat.slice(0, 6));
    }
    expect(left).toBeGreaterThan(0);
    for (const bad of [-1, 1.5]) expectPlainError(await lookup.GET('/lookup/tokens/cost', { params: { query: { max_age: bad } } }), 400, String(bad));
    // Not a number at all.
    expectPlainError(await server.sendRaw('GET', '/lookup/tokens/cost?max_age=abc', { key: null }), 400, 'abc');
  });

  it('show a new token from the prices file without a restart', async () => {
    const config = JSON.parse(readFileSync(pricesFile, 'utf8'));
    config.tokens.push({ ...config.tokens[0], symbol: 'NEWBOND', mint: 'NewBondMint1111111111111111111111111111111' });
    writeFileSync(pricesFile, JSON.stringify(config));
    // The feed notices the file on its own: ask until it answers the new token.
    const costs = await eventually(async () => {
      const now = await tokenCosts();
      return now.NEWBOND && now;
    }, waitBudget, 'the new token in the price feed');
    expect(costs.NEWBOND).toMatchObject({ token_symbol: 'NEWBOND', token_kind: 'bond' });
  });

  it('keep the deprecated bond lookups keyed by mint with PaymentData', async () => {
    const bonds = expectStatus(await lookup.GET('/lookup/bonds/cost'), 200);
    const cetes = Object.values(bonds).find((b) => b.symbol === 'CETES')!;
    expect(bonds[cetes.mint]).toBe(cetes);
    expect(cetes).toMatchObject({ bond_symbol: 'CETES', currency: 'MXN' });
    expect(Object.values(bonds).some((b) => b.symbol.startsWith('PT'))).toBe(false);
    const bond = (identifier: string) => lookup.GET('/lookup/bonds/cost/{identifier}', { params: { path: { identifier } } });
    expect(expectStatus(await bond('cetes'), 200).mint).toBe(cetes.mint);
    expectPlainError(await bond('PTCETES27'), 404);
  });

  it('list every ISO 3166-1 country with alpha-2, alpha-3 and English name', async () => {
    const countries = expectStatus(await lookup.GET('/lookup/country-codes'), 200);
    expect(countries.length).toBeGreaterThanOrEqual(249);
    expect(countries).toContainEqual({ alpha2: 'MX', alpha3: 'MEX', name: 'Mexico' });
  });

  it('list restricted countries with their KYC and KYB flags', async () => {
    const body = expectStatus(await lookup.GET('/lookup/restricted-countries'), 200);
    expect(body.countries).toContainEqual(expect.objectContaining({ alpha2: 'KP', kyc_blocked: true, kyb_blocked: true }));
    expect(body.countries.every((c) => c.kyc_blocked || c.kyb_blocked)).toBe(true);
  });

  it('give usd_to_<currency> exchange rates with their sources', async () => {
    const rates = expectStatus(await lookup.GET('/lookup/exchange_rate'), 200);
    expect(rates.usd_to_mxn).toMatchObject({ currency: 'MXN' });
    expect(Number(rates.usd_to_mxn!.rate)).toBeGreaterThan(10);
    expect(Object.keys(rates.usd_to_mxn!.sources).length).toBeGreaterThanOrEqual(2);
  });

  it('refuse unknown query parameters with a lookup error', async () => {
    // A parameter the contract does not have.
    expectPlainError(await server.sendRaw('GET', '/lookup/country-codes?foo=1', { key: null }), 400);
  });
});

describe('lookups before the first prices', () => {
  it('answer 503 (tokens, rates) and 500 (deprecated bonds) until prices exist', async () => {
    const server = await startTestServer({ env: { RAMP_PRICES_WARMUP_MS: '60000' } });
    try {
      const lookup = server.as(null);
      // In the words of the reference's example.
      const { NotYetAvailable } = loadBundle('lookup').components.responses.LookupServiceUnavailable.content['application/json'].examples;
      const tokens = await lookup.GET('/lookup/tokens/cost');
      expect(expectPlainError(tokens, 503)).toEqual(NotYetAvailable.value);
      expect(tokens.response.headers.get('retry-after')).toBe('1');
      expect(expectPlainError(await lookup.GET('/lookup/tokens/cost/{identifier}', { params: { path: { identifier: 'CETES' } } }), 503)).toEqual(NotYetAvailable.value);
      expect(expectPlainError(await lookup.GET('/lookup/exchange_rate'), 503)).toEqual(NotYetAvailable.value);
      const { PricesUnavailable } = loadBundle('lookup').components.responses.LookupBondPricesUnavailable.content['application/json'].examples;
      expect(expectPlainError(await lookup.GET('/lookup/bonds/cost'), 500)).toEqual(PricesUnavailable.value);
      expect(expectPlainError(await lookup.GET('/lookup/bonds/cost/{identifier}', { params: { path: { identifier: 'CETES' } } }), 500)).toEqual(PricesUnavailable.value);
      expectStatus(await lookup.GET('/lookup/country-codes'), 200);
    } finally {
      await server.close();
    }
  });
});
