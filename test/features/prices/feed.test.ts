import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultPricesFile } from '../../../server/config.ts';
import { PriceFeed } from '../../../server/features/prices/feed.ts';

// A moment with milliseconds, and others later in the same second: the feed reuses what it
// built for the second, so each answer is compared with a fresh feed's for the same request.
const at = (ms: number) => new Date(Date.parse('2026-03-04T05:06:07.000Z') + ms);
const fresh = () => new PriceFeed();

describe('the price feed within one second', () => {
  it('answers each request as a fresh feed would: its own current_time and its own max_age', () => {
    const feed = new PriceFeed();
    const requests: [number, number | undefined][] = [[123, 0], [124, undefined], [125, 0], [126, 40], [127, undefined], [999, 40]];
    for (const [ms, maxAge] of requests) {
      const answer = feed.tokenCosts(at(ms), maxAge);
      expect(answer, `${ms} ${maxAge}`).toEqual(fresh().tokenCosts(at(ms), maxAge));
      for (const cost of Object.values(answer)) {
        expect(cost.current_time).toBe(at(ms).toISOString());
        const second = Math.floor(at(ms).getTime() / 1000);
        for (const source of Object.values(cost.sources)) expect(source.updated_at).toBeGreaterThanOrEqual(second - (maxAge ?? Infinity));
        if (maxAge === undefined) expect(Object.keys(cost.sources)).toEqual(['pyth', 'switchboard', 'banxico']);
      }
    }
    // max_age filters the sources only: a short one leaves some out here.
    const all = feed.tokenCosts(at(500));
    const recent = feed.tokenCosts(at(501), 0);
    expect(Object.values(recent).some((cost) => Object.keys(cost.sources).length < 3)).toBe(true);
    for (const [symbol, cost] of Object.entries(recent)) expect(cost.token_cost_in_fiat).toBe(all[symbol]!.token_cost_in_fiat);
  });

  it('keeps one token, the bonds and the lists alike, whatever order they are asked in', () => {
    const feed = new PriceFeed();
    const one = feed.tokenCost('cetes', at(10), 3);
    const bonds = feed.bondCosts(at(20), 3);
    const list = feed.tokenCosts(at(30));
    expect(one).toEqual(fresh().tokenCost('CETES', at(10), 3));
    expect(bonds).toEqual(fresh().bondCosts(at(20), 3));
    expect(list).toEqual(fresh().tokenCosts(at(30)));
    expect(bonds[one!.token_mint]!.sources).toEqual(
      Object.fromEntries(Object.entries(one!.sources).map(([id, s]) => [id, { bond_cost_in_usd: s.token_cost_in_usd, exchange_rate: s.exchange_rate, updated_at: s.updated_at }])),
    );
  });

  it('answers every max_age a client varies within a second, beyond those it keeps', () => {
    const feed = new PriceFeed();
    for (let maxAge = 0; maxAge < 100; maxAge++) {
      expect(feed.tokenCost('PTCETES27', at(maxAge), maxAge), String(maxAge)).toEqual(fresh().tokenCost('PTCETES27', at(maxAge), maxAge));
    }
  });

  it('does not let a caller that changes an answer change the next one', () => {
    const feed = new PriceFeed();
    const first = feed.tokenCosts(at(1), 10);
    for (const cost of Object.values(first)) {
      // The contract marks these readOnly: a caller changes them anyway.
      Object.assign(cost, { token_cost_in_fiat: 'changed', current_time: 'changed' });
    }
    expect(feed.tokenCosts(at(2), 10)).toEqual(fresh().tokenCosts(at(2), 10));
  });
});

describe('the prices file', () => {
  it('is read again once it parses, even when the half-written read had the same mtime', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prices-'));
    try {
      const file = join(dir, 'prices.json');
      const text = readFileSync(defaultPricesFile, 'utf8');
      writeFileSync(file, text);
      const feed = new PriceFeed(file);
      expect(feed.tokenCosts(at(0)).NEWBOND).toBeUndefined();

      const config = JSON.parse(text);
      config.tokens.push({ ...config.tokens[0], symbol: 'NEWBOND', mint: 'NewBondMint1111111111111111111111111111111' });
      const whole = JSON.stringify(config);
      // The feed looks while the file is half written: it keeps what it had.
      const mtime = new Date('2026-03-04T05:06:10.000Z');
      writeFileSync(file, whole.slice(0, whole.length / 2));
      utimesSync(file, mtime, mtime);
      expect(feed.tokenCosts(at(2000)).NEWBOND).toBeUndefined();
      // The writer finishes within the same mtime tick.
      writeFileSync(file, whole);
      utimesSync(file, mtime, mtime);
      expect(feed.tokenCosts(at(4000)).NEWBOND).toMatchObject({ token_symbol: 'NEWBOND' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
