import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPricesFile } from '../../server/config.ts';
import { expectPlainError } from '../support/errors.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { eventually, waitBudget } from '../support/wait.ts';

describe('lookups', () => {
  let server: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'ramp-prices-'));
  const pricesFile = join(dir, 'prices.json');
  beforeAll(async () => {
    copyFileSync(defaultPricesFile, pricesFile);
    server = await startTestServer({ env: { RAMP_PRICES_FILE: pricesFile } });
  });
  afterAll(() => server.close());

  it('are public: no key needed', async () => {
    const response = await server.call('GET', '/lookup/tokens/cost', { key: null });
    expect(response.status).toBe(200);
  });

  it('price every token keyed by uppercased symbol, bonds and principal tokens alike', async () => {
    const { json_: costs } = await server.call('GET', '/lookup/tokens/cost', { key: null });
    expect(Object.keys(costs)).toEqual(expect.arrayContaining(['CETES', 'USTRY', 'PTCETES27']));
    const cetes = costs.CETES;
    expect(cetes).toMatchObject({ token_symbol: 'CETES', token_kind: 'bond', currency: 'MXN', current_basis_points: 1045 });
    expect(cetes.payment_mint).toBeDefined();
    expect(cetes.underlying_bond_symbol).toBeUndefined();
    expect(Number(cetes.token_cost_in_fiat)).toBeGreaterThan(1);
    expect(Number(cetes.token_cost_in_usd)).toBeCloseTo(Number(cetes.token_cost_in_fiat) / Number(cetes.fiat_exchange_rate_with_usd), 4);
    expect(Object.keys(cetes.sources).length).toBeGreaterThanOrEqual(2);
    for (const source of Object.values<any>(cetes.sources)) expect(Number.isInteger(source.updated_at)).toBe(true);
    const pt = costs.PTCETES27;
    expect(pt).toMatchObject({ token_kind: 'principal_token', underlying_bond_symbol: 'CETES' });
    expect(pt.payment_mint).toBeUndefined();
    // A principal token trades below its bond.
    expect(Number(pt.token_cost_in_fiat)).toBeLessThan(Number(cetes.token_cost_in_fiat));
  });

  it('find one token by symbol in any case or by mint, and 404 an unknown one', async () => {
    const bySymbol = await server.call('GET', '/lookup/tokens/cost/cEtEs', { key: null });
    expect(bySymbol.status).toBe(200);
    const byMint = await server.call('GET', `/lookup/tokens/cost/${bySymbol.json_.token_mint}`, { key: null });
    expect(byMint.json_.token_symbol).toBe('CETES');
    const unknown = await server.call('GET', '/lookup/tokens/cost/NOPE', { key: null });
    expect(unknown.status).toBe(404);
    expect(unknown.json_).toEqual({ error: expect.stringContaining('NOPE') });
  });

  it('leave out sources older than max_age, and refuse a max_age that is not an integer >= 0', async () => {
    const all = (await server.call('GET', '/lookup/tokens/cost', { key: null })).json_;
    const fresh = (await server.call('GET', '/lookup/tokens/cost?max_age=10', { key: null })).json_;
    const now = Math.floor(Date.now() / 1000);
    let left = 0;
    for (const [symbol, cost] of Object.entries<any>(all)) {
      for (const [provider, source] of Object.entries<any>(cost.sources)) {
        const kept = provider in fresh[symbol].sources;
        if (source.updated_at < now - 11) expect(kept, `${symbol} ${provider}`).toBe(false);
        if (source.updated_at >= now - 9) expect(kept, `${symbol} ${provider}`).toBe(true);
        if (!kept) left++;
      }
      // max_age filters the sources, never the prices.
      expect(fresh[symbol].token_cost_in_fiat.slice(0, 6)).toBe(cost.token_cost_in_fiat.slice(0, 6));
    }
    expect(left).toBeGreaterThan(0);
    for (const bad of ['-1', 'abc', '1.5']) {
      const response = await server.call('GET', `/lookup/tokens/cost?max_age=${bad}`, { key: null });
      expectPlainError(response, 400, bad);
    }
  });

  it('show a new token from the prices file without a restart', async () => {
    const config = JSON.parse(readFileSync(pricesFile, 'utf8'));
    config.tokens.push({ ...config.tokens[0], symbol: 'NEWBOND', mint: 'NewBondMint1111111111111111111111111111111' });
    writeFileSync(pricesFile, JSON.stringify(config));
    // The feed notices the file on its own: ask until it answers the new token.
    const costs = await eventually(async () => {
      const { json_ } = await server.call('GET', '/lookup/tokens/cost', { key: null });
      return json_.NEWBOND && json_;
    }, waitBudget, 'the new token in the price feed');
    expect(costs.NEWBOND).toMatchObject({ token_symbol: 'NEWBOND', token_kind: 'bond' });
  });

  it('keep the deprecated bond lookups keyed by mint with PaymentData', async () => {
    const { json_: bonds } = await server.call('GET', '/lookup/bonds/cost', { key: null });
    const cetes = Object.values<any>(bonds).find((b) => b.symbol === 'CETES');
    expect(bonds[cetes.mint]).toBe(cetes);
    expect(cetes).toMatchObject({ bond_symbol: 'CETES', currency: 'MXN' });
    expect(Object.values<any>(bonds).some((b) => b.symbol.startsWith('PT'))).toBe(false);
    const one = await server.call('GET', '/lookup/bonds/cost/cetes', { key: null });
    expect(one.json_.mint).toBe(cetes.mint);
    expect((await server.call('GET', '/lookup/bonds/cost/PTCETES27', { key: null })).status).toBe(404);
  });

  it('list every ISO 3166-1 country with alpha-2, alpha-3 and English name', async () => {
    const { json_: countries } = await server.call('GET', '/lookup/country-codes', { key: null });
    expect(countries.length).toBeGreaterThanOrEqual(249);
    expect(countries).toContainEqual({ alpha2: 'MX', alpha3: 'MEX', name: 'Mexico' });
  });

  it('list restricted countries with their KYC and KYB flags', async () => {
    const { json_: body } = await server.call('GET', '/lookup/restricted-countries', { key: null });
    expect(body.countries).toContainEqual(expect.objectContaining({ alpha2: 'KP', kyc_blocked: true, kyb_blocked: true }));
    expect(body.countries.every((c: any) => c.kyc_blocked || c.kyb_blocked)).toBe(true);
  });

  it('give usd_to_<currency> exchange rates with their sources', async () => {
    const { json_: rates } = await server.call('GET', '/lookup/exchange_rate', { key: null });
    expect(rates.usd_to_mxn).toMatchObject({ currency: 'MXN' });
    expect(Number(rates.usd_to_mxn.rate)).toBeGreaterThan(10);
    expect(Object.keys(rates.usd_to_mxn.sources).length).toBeGreaterThanOrEqual(2);
  });

  it('refuse unknown query parameters with a lookup error', async () => {
    const response = await server.call('GET', '/lookup/country-codes?foo=1', { key: null });
    expectPlainError(response, 400);
  });
});

describe('lookups before the first prices', () => {
  it('answer 503 (tokens, rates) and 500 (deprecated bonds) until prices exist', async () => {
    const server = await startTestServer({ env: { RAMP_PRICES_WARMUP_MS: '60000' } });
    try {
      const tokens = await server.call('GET', '/lookup/tokens/cost', { key: null });
      expectPlainError(tokens, 503);
      expect(tokens.headers.get('retry-after')).toBe('1');
      expect((await server.call('GET', '/lookup/tokens/cost/CETES', { key: null })).status).toBe(503);
      expect((await server.call('GET', '/lookup/bonds/cost', { key: null })).status).toBe(500);
      expect((await server.call('GET', '/lookup/country-codes', { key: null })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
