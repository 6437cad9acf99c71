/**
 * The sandbox price feed. It behaves like the real one: bonds accrue at their basis
 * points, principal tokens trade at a discount to maturity, exchange rates drift, and each
 * provider publishes on its own period, so its `updated_at` moves and `max_age` has
 * something to filter. Every value is a pure function of the clock and the prices file,
 * so two server processes publish the same prices. The token list is read from the file
 * (re-read when it changes), so a new token appears without a code change.
 *
 * Prices are computed once per second of the clock and reused within it (decimal powers
 * and hashes are costly and the request path is hot): a value moves by less than its last
 * published digit within a second, and both processes still compute the same second alike.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/types/ramp.ts';

import { defaultPricesFile } from '../../config.ts';


interface BondConfig {
  symbol: string;
  kind: 'bond';
  mint: string;
  currency: string;
  basisPoints: number;
  faceValue: string;
  issuedAt: string;
  paymentMint: string;
}

interface PrincipalTokenConfig {
  symbol: string;
  kind: 'principal_token';
  underlying: string;
  mint: string;
  maturesAt: string;
}

export interface PricesConfig {
  currencies: Record<string, { usdRate: string }>;
  providers: { id: string; periodSeconds: number }[];
  tokens: (BondConfig | PrincipalTokenConfig)[];
}

type Schemas = components['schemas'];
export type TokenCostSource = Schemas['TokenCostSource'];
export type TokenCost = Schemas['TokenCost'];
export type PaymentData = Schemas['PaymentData'];
export type ExchangeRate = Schemas['ExchangeRate'];

const year = 365 * 24 * 3600;
const fiatPlaces = 6;
const usdPlaces = 6;
const ratePlaces = 4;

/** A small stable number in [-1, 1) from a string: provider skews and phase offsets. */
function hashJitter(seed: string): number {
  return createHash('sha256').update(seed).digest().readUInt32BE(0) / 2 ** 31 - 1;
}

/** What one second of the clock priced, with the configuration it was priced from. */
interface SecondPrices {
  second: number;
  config: PricesConfig;
  costs: Map<string, TokenCost>;
  usdRates: Map<string, Decimal>;
  exchangeRates?: Record<string, ExchangeRate>;
  /** Costs with their sources already filtered, per `max_age` (undefined: all sources). */
  filtered: Map<number | undefined, Map<string, TokenCost>>;
}

/** Distinct `max_age` values kept per second; more (a client varying it) are built per request. */
const maxAgesKept = 32;

export class PriceFeed {
  private config: PricesConfig;
  private loadedMtimeMs = 0;
  private checkedAt = 0;
  /** hashJitter is pure: its few seeds (providers × subjects) are hashed once. */
  private readonly jitters = new Map<string, number>();
  private priced: SecondPrices | undefined;

  constructor(
    private readonly file: string = defaultPricesFile,
    /** Prices exist only after this moment (503 before it), as after a cold start. */
    private readonly availableFrom: Date = new Date(0),
  ) {
    this.config = this.read();
  }

  private read(): PricesConfig {
    const { mtimeMs } = statSync(this.file);
    const config = JSON.parse(readFileSync(this.file, 'utf8')) as PricesConfig;
    // Only a file that parsed counts as loaded: a half-written one is read again next time.
    this.loadedMtimeMs = mtimeMs;
    return config;
  }

  /** The current configuration, re-read at most once a second when the file changed. */
  private current(now: Date): PricesConfig {
    if (now.getTime() - this.checkedAt > 1000) {
      this.checkedAt = now.getTime();
      try {
        if (statSync(this.file).mtimeMs !== this.loadedMtimeMs) this.config = this.read();
      } catch {
        // A file half-written or gone keeps the last good configuration.
      }
    }
    return this.config;
  }

  private jitter(seed: string): number {
    let value = this.jitters.get(seed);
    if (value === undefined) this.jitters.set(seed, (value = hashJitter(seed)));
    return value;
  }

  /** This second's memo, started afresh when the second or the configuration changes. */
  private pricedAt(config: PricesConfig, now: Date): SecondPrices {
    const second = Math.floor(now.getTime() / 1000);
    if (this.priced?.second !== second || this.priced.config !== config) {
      this.priced = { second, config, costs: new Map(), usdRates: new Map(), filtered: new Map() };
    }
    return this.priced;
  }

  available(now: Date): boolean {
    return now.getTime() >= this.availableFrom.getTime();
  }

  /** When `provider` last published for `subject`: a multiple of its period, phase-shifted per subject. */
  private publishedAt(provider: { id: string; periodSeconds: number }, subject: string, nowSeconds: number): number {
    const phase = Math.floor(((this.jitter(`${provider.id}:${subject}:phase`) + 1) / 2) * provider.periodSeconds);
    return Math.floor((nowSeconds - phase) / provider.periodSeconds) * provider.periodSeconds + phase;
  }

  /** Units of `currency` per USD at a moment: the configured rate with a slow hourly drift. */
  private usdRate(config: PricesConfig, currency: string, atSeconds: number, provider = ''): Decimal {
    const base = new Decimal(config.currencies[currency]?.usdRate ?? NaN);
    if (currency === 'USD') return base;
    const drift = 0.002 * Math.sin((2 * Math.PI * atSeconds) / 3600 + this.jitter(currency) * Math.PI);
    const skew = provider ? 0.0004 * this.jitter(`${provider}:${currency}`) : 0;
    return base.mul(1 + drift + skew);
  }

  /** Price of one token in its currency at a moment. */
  private fiatPrice(config: PricesConfig, token: BondConfig | PrincipalTokenConfig, atSeconds: number): Decimal {
    if (token.kind === 'bond') {
      const years = Math.max(0, atSeconds - Date.parse(token.issuedAt) / 1000) / year;
      return new Decimal(token.faceValue).mul(new Decimal(1).plus(new Decimal(token.basisPoints).div(10_000).mul(years)));
    }
    const bond = this.bondOf(config, token);
    const yearsLeft = Math.max(0, Date.parse(token.maturesAt) / 1000 - atSeconds) / year;
    const atMaturity = this.fiatPrice(config, bond, Date.parse(token.maturesAt) / 1000);
    return atMaturity.div(new Decimal(1).plus(bond.basisPoints / 10_000).pow(yearsLeft));
  }

  private bondOf(config: PricesConfig, token: PrincipalTokenConfig): BondConfig {
    const bond = config.tokens.find((t): t is BondConfig => t.kind === 'bond' && t.symbol === token.underlying);
    if (!bond) throw new Error(`principal token ${token.symbol} names an unknown bond ${token.underlying}`);
    return bond;
  }

  /**
   * A token's cost as the request sees it: this second's prices, its own time, its `max_age`.
   * Only `current_time` (fractional seconds) differs between requests within a second, so
   * the rest, sources filtered, is built once per second and `max_age`.
   */
  private costOf(config: PricesConfig, token: BondConfig | PrincipalTokenConfig, now: Date, maxAge?: number, currentTime = now.toISOString()): TokenCost {
    const priced = this.pricedAt(config, now);
    let filtered = priced.filtered.get(maxAge);
    if (!filtered) {
      filtered = new Map();
      if (priced.filtered.size < maxAgesKept) priced.filtered.set(maxAge, filtered);
    }
    let answer = filtered.get(token.symbol);
    if (!answer) {
      let cost = priced.costs.get(token.symbol);
      if (!cost) priced.costs.set(token.symbol, (cost = this.computeCost(config, token, new Date(priced.second * 1000))));
      const oldest = priced.second - (maxAge ?? Infinity);
      const sources = Object.fromEntries(Object.entries(cost.sources).filter(([, s]) => s.updated_at >= oldest));
      filtered.set(token.symbol, (answer = { ...cost, sources }));
    }
    return { ...answer, current_time: currentTime };
  }

  private computeCost(config: PricesConfig, token: BondConfig | PrincipalTokenConfig, now: Date): TokenCost {
    const nowSeconds = now.getTime() / 1000;
    const bond = token.kind === 'bond' ? token : this.bondOf(config, token);
    const all = config.providers.map((provider) => {
      const at = this.publishedAt(provider, token.symbol, Math.floor(nowSeconds));
      const rate = this.usdRate(config, bond.currency, at, provider.id);
      const usd = this.fiatPrice(config, token, at).div(rate);
      return { id: provider.id, at, rate, usd };
    });
    const fiat = this.fiatPrice(config, token, nowSeconds);
    const rate = Decimal.sum(...all.map((s) => s.rate)).div(all.length);
    const sources = Object.fromEntries(
      all.map((s) => [s.id, { exchange_rate: s.rate.toFixed(ratePlaces), token_cost_in_usd: s.usd.toFixed(usdPlaces), updated_at: s.at }]),
    );
    return {
      token_symbol: token.symbol,
      token_mint: token.mint,
      token_kind: token.kind,
      ...(token.kind === 'principal_token' ? { underlying_bond_symbol: bond.symbol } : {}),
      currency: bond.currency,
      token_cost_in_fiat: fiat.toFixed(fiatPlaces),
      token_cost_in_usd: fiat.div(rate).toFixed(usdPlaces),
      fiat_exchange_rate_with_usd: rate.toFixed(ratePlaces),
      current_basis_points: bond.basisPoints,
      current_time: now.toISOString(),
      ...(token.kind === 'bond' ? { payment_mint: token.paymentMint } : {}),
      sources,
    };
  }

  /** Every token, keyed by its uppercased symbol. */
  tokenCosts(now: Date, maxAge?: number): Record<string, TokenCost> {
    const config = this.current(now);
    const currentTime = now.toISOString();
    return Object.fromEntries(config.tokens.map((t) => [t.symbol.toUpperCase(), this.costOf(config, t, now, maxAge, currentTime)]));
  }

  /** One token by symbol (any case) or by mint (exact). */
  tokenCost(identifier: string, now: Date, maxAge?: number): TokenCost | undefined {
    const config = this.current(now);
    const token = config.tokens.find((t) => t.mint === identifier || t.symbol.toUpperCase() === identifier.toUpperCase());
    return token && this.costOf(config, token, now, maxAge);
  }

  private paymentData(config: PricesConfig, bond: BondConfig, now: Date, maxAge?: number, currentTime = now.toISOString()): PaymentData {
    const cost = this.costOf(config, bond, now, maxAge, currentTime);
    // The payment token is the USD stablecoin the bond is bought with: one per USD.
    return {
      bond_cost_in_fiat: cost.token_cost_in_fiat,
      bond_cost_in_payment_token: cost.token_cost_in_usd,
      bond_cost_in_usd: cost.token_cost_in_usd,
      bond_symbol: bond.symbol,
      currency: bond.currency,
      current_basis_points: bond.basisPoints,
      current_time: cost.current_time,
      fiat_exchange_rate_with_usd: cost.fiat_exchange_rate_with_usd,
      mint: bond.mint,
      symbol: bond.symbol,
      sources: Object.fromEntries(
        Object.entries(cost.sources).map(([id, s]) => [id, { bond_cost_in_usd: s.token_cost_in_usd, exchange_rate: s.exchange_rate, updated_at: s.updated_at }]),
      ),
    };
  }

  /** The deprecated bond lookups: stablebonds only, keyed by mint. */
  bondCosts(now: Date, maxAge?: number): Record<string, PaymentData> {
    const config = this.current(now);
    const bonds = config.tokens.filter((t): t is BondConfig => t.kind === 'bond');
    const currentTime = now.toISOString();
    return Object.fromEntries(bonds.map((b) => [b.mint, this.paymentData(config, b, now, maxAge, currentTime)]));
  }

  bondCost(identifier: string, now: Date, maxAge?: number): PaymentData | undefined {
    const config = this.current(now);
    const bond = config.tokens.find(
      (t): t is BondConfig => t.kind === 'bond' && (t.mint === identifier || t.symbol.toUpperCase() === identifier.toUpperCase()),
    );
    return bond && this.paymentData(config, bond, now, maxAge);
  }

  /** `usd_to_<currency>` for every currency but USD. */
  exchangeRates(now: Date, maxAge?: number): Record<string, ExchangeRate> {
    const config = this.current(now);
    const priced = this.pricedAt(config, now);
    priced.exchangeRates ??= this.computeExchangeRates(config, priced.second);
    const oldest = priced.second - (maxAge ?? Infinity);
    return Object.fromEntries(
      Object.entries(priced.exchangeRates).map(([key, rate]) => [
        key,
        { ...rate, sources: Object.fromEntries(Object.entries(rate.sources).filter(([, s]) => s.updated_at >= oldest)) },
      ]),
    );
  }

  private computeExchangeRates(config: PricesConfig, nowSeconds: number): Record<string, ExchangeRate> {
    const rates: Record<string, ExchangeRate> = {};
    for (const currency of Object.keys(config.currencies).filter((c) => c !== 'USD')) {
      const all = config.providers.map((provider) => {
        const at = this.publishedAt(provider, currency, nowSeconds);
        return { id: provider.id, at, rate: this.usdRate(config, currency, at, provider.id) };
      });
      rates[`usd_to_${currency.toLowerCase()}`] = {
        rate: Decimal.sum(...all.map((s) => s.rate)).div(all.length).toFixed(ratePlaces),
        currency,
        updated_at: Math.max(...all.map((s) => s.at)),
        sources: Object.fromEntries(all.map((s) => [s.id, { exchange_rate: s.rate.toFixed(ratePlaces), updated_at: s.at }])),
      };
    }
    return rates;
  }

  /** Price of `amount` of `from` in `to` (fiat currency or token symbol), for quotes. */
  convert(amount: Decimal, from: string, to: string, now: Date): Decimal | undefined {
    const config = this.current(now);
    const priced = this.pricedAt(config, now);
    const inUsd = (asset: string): Decimal | undefined => {
      if (config.currencies[asset]) {
        let rate = priced.usdRates.get(asset);
        if (!rate) priced.usdRates.set(asset, (rate = this.usdRate(config, asset, priced.second)));
        return new Decimal(1).div(rate);
      }
      if (asset === 'USDC' || asset === 'USDT') return new Decimal(1);
      const token = config.tokens.find((t) => t.symbol.toUpperCase() === asset.toUpperCase());
      return token ? new Decimal(this.costOf(config, token, now).token_cost_in_usd) : undefined;
    };
    const a = inUsd(from);
    const b = inUsd(to);
    return a && b ? amount.mul(a).div(b) : undefined;
  }
}
