/**
 * Quotes (v2): firm prices from the sandbox price feed, valid until `expiresAt`. The fee is
 * in the source asset and taken first: targetAmount = (sourceAmount − fee) × rate, rounded
 * down to the target asset's precision (the Quote schema states the rule to partners).
 */
import { randomUUID } from 'node:crypto';
import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/types/ramp.ts';
import { Problem, validationError, type FieldError } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import type { OrganizationRow } from '../organizations/repository.ts';
import { paymentAccountsRepository } from '../paymentAccounts/repository.ts';
import { presentQuote } from './presenters.ts';
import { quotesRepository, type NewQuoteRow } from './repository.ts';
import { isApproved } from '../organizations/rules.ts';
import { assertUsable, railSpecs } from '../paymentAccounts/useCases.ts';
import type { PriceFeed } from '../prices/feed.ts';
import { fiatPrecision, stablecoins, tokenPrecision } from '../../shared/world.ts';
import { pageMeta, type PageRequest } from '../../shared/pagination.ts';

type Schemas = components['schemas'];
export type Quote = Schemas['Quote'];
export type QuoteRequest = Schemas['QuoteRequest'];
export type OrderType = Schemas['OrderType'];

/** How long a quote stays firm. */
export const quoteLifetimeMs = 5 * 60_000;

/** The sandbox limit on onramps (v2.yaml, Sandbox; SandboxLimitExceededProblem): 500 MXN per quote. */
export const sandboxOnrampLimit = new Decimal(500);

/** The fee, as a fraction of the source amount, by direction. */
export const feeRates: Record<OrderType, Decimal> = {
  onramp: new Decimal('0.01'),
  offramp: new Decimal('0.005'),
  swap: new Decimal('0.001'),
};

const rateDigits = 8;

export interface Asset {
  symbol: string;
  kind: 'fiat' | 'token';
  /** Decimal places the asset is counted in. */
  precision: number;
}

/** An ISO 4217 code the feed knows, a stablecoin, or a token by symbol (any case) or mint. */
export function resolveAsset(prices: PriceFeed, identifier: string, now: Date): Asset | undefined {
  const upper = identifier.toUpperCase();
  if (stablecoins.includes(upper)) return { symbol: upper, kind: 'token', precision: tokenPrecision };
  const token = prices.tokenCost(identifier, now);
  if (token) return { symbol: token.token_symbol, kind: 'token', precision: tokenPrecision };
  const fiat = upper === 'USD' || Object.values(prices.exchangeRates(now)).some((rate) => rate.currency === upper);
  return fiat ? { symbol: upper, kind: 'fiat', precision: fiatPrecision } : undefined;
}

const routeFields: Record<OrderType, Record<'paymentAccountId' | 'walletAddress' | 'rail', boolean>> = {
  onramp: { walletAddress: true, rail: true, paymentAccountId: false },
  offramp: { walletAddress: true, rail: true, paymentAccountId: true },
  swap: { walletAddress: true, rail: false, paymentAccountId: false },
};

const article = (type: OrderType) => (type === 'swap' ? 'a swap' : `an ${type}`);

/** The route fields the quote's type takes, and only those (`routeFields`), each missing or extra one a field error. */
function assertRouteFields(request: QuoteRequest): void {
  const errors: FieldError[] = [];
  for (const [field, needed] of Object.entries(routeFields[request.type])) {
    const sent = request[field as keyof QuoteRequest] !== undefined;
    if (needed && !sent) errors.push({ pointer: `/${field}`, detail: `is required for ${article(request.type)}` });
    if (!needed && sent) errors.push({ pointer: `/${field}`, detail: `is not taken by ${article(request.type)}` });
  }
  if (errors.length > 0) throw validationError(errors);
}

/**
 * The assets the quote moves between and the rail it names: both known to the feed, of the
 * kinds its type goes between, not one and the same, and a rail carrying its fiat currency.
 */
function routeOf(prices: PriceFeed, request: QuoteRequest, priced: Date) {
  const source = resolveAsset(prices, request.sourceAsset, priced);
  const target = resolveAsset(prices, request.targetAsset, priced);
  if (!source) throw new Problem('unsupported', `No route accepts the asset ${request.sourceAsset}.`);
  if (!target) throw new Problem('unsupported', `No route accepts the asset ${request.targetAsset}.`);
  const expected: Record<OrderType, [Asset['kind'], Asset['kind']]> = { onramp: ['fiat', 'token'], offramp: ['token', 'fiat'], swap: ['token', 'token'] };
  const [sourceKind, targetKind] = expected[request.type];
  if (source.kind !== sourceKind || target.kind !== targetKind) {
    throw new Problem('unsupported', `${article(request.type).replace(/^a/, 'A')} goes from a ${sourceKind === 'fiat' ? 'fiat currency' : 'token'} to a ${targetKind === 'fiat' ? 'fiat currency' : 'token'}; ${source.symbol} to ${target.symbol} is not one.`);
  }
  if (source.symbol === target.symbol) throw new Problem('unsupported', `${source.symbol} to ${target.symbol} moves nothing.`);
  const rail = request.rail ? railSpecs[request.rail] : undefined;
  const fiat = request.type === 'onramp' ? source : request.type === 'offramp' ? target : undefined;
  if (rail && fiat && fiat.symbol !== rail.currency) {
    throw new Problem('unsupported', `The ${request.rail} rail carries ${rail.currency}, not ${fiat.symbol}.`);
  }
  return { source, target, rail };
}

export async function createQuote(services: Services, organization: OrganizationRow, request: QuoteRequest): Promise<Quote> {
  const { config, prices } = services;
  const now = services.clock.now();
  assertRouteFields(request);
  const amount = new Decimal(request.sourceAmount);
  if (amount.lte(0)) throw new Problem('invalid-request', 'sourceAmount must be greater than 0.');
  if (!isApproved(organization)) {
    const what = organization.type === 'personal' ? 'KYC' : 'KYB';
    throw new Problem('organization-not-approved', `Organization ${organization.id} is not approved (its ${what} is ${organization.type === 'personal' ? organization.kyc_status : organization.kyb_status}).`);
  }

  // Prices are global and on real time (the feed, its warm-up, /lookup); the quote's own
  // createdAt and expiresAt are on the partner's sandbox clock.
  const priced = services.realClock.now();
  const { source, target, rail } = routeOf(prices, request, priced);
  if (amount.decimalPlaces() > source.precision) {
    throw new Problem('invalid-request', `sourceAmount has more than ${source.precision} decimal places, the precision of ${source.symbol}.`);
  }
  const inRange = (value: Decimal, what: string) => {
    if (!rail) return;
    if (value.lt(rail.minAmount)) throw new Problem('amount-out-of-range', `${what} ${value.toFixed(fiatPrecision)} is below the ${request.rail} minimum of ${rail.minAmount} ${rail.currency}.`);
    if (value.gt(rail.maxAmount)) throw new Problem('amount-out-of-range', `${what} ${value.toFixed(fiatPrecision)} is above the ${request.rail} maximum of ${rail.maxAmount} ${rail.currency}.`);
  };
  if (request.type === 'onramp') {
    inRange(amount, 'sourceAmount');
    if (config.env === 'sandbox' && amount.gt(sandboxOnrampLimit)) {
      throw new Problem('sandbox-limit-exceeded', `Onramp quotes in the sandbox are limited to ${sandboxOnrampLimit.toFixed(fiatPrecision)} MXN; ${amount.toFixed(fiatPrecision)} was requested.`);
    }
  }
  if (request.type === 'offramp') {
    const account = await paymentAccountsRepository(services.storage.db).find(organization.id, request.paymentAccountId!);
    if (!account) throw new Problem('not-found', `Payment account ${request.paymentAccountId} was not found.`);
    assertUsable(account, request.rail!, 'destination');
  }

  const unit = prices.available(priced) ? prices.convert(new Decimal(1), source.symbol, target.symbol, priced) : undefined;
  if (!unit || !unit.isFinite() || unit.lte(0)) throw new Problem('quote-unavailable', `No price is available for ${source.symbol} to ${target.symbol} right now.`);
  const rate = unit.toSignificantDigits(rateDigits, Decimal.ROUND_DOWN);
  const fee = amount.mul(feeRates[request.type]).toDecimalPlaces(source.precision, Decimal.ROUND_UP);
  const targetAmount = amount.minus(fee).mul(rate).toDecimalPlaces(target.precision, Decimal.ROUND_DOWN);
  if (request.type === 'offramp') inRange(targetAmount, 'targetAmount');
  if (targetAmount.lte(0)) throw new Problem('amount-out-of-range', `sourceAmount ${amount.toFixed()} is too small to deliver any ${target.symbol} after the fee.`);

  const row: NewQuoteRow = {
    id: randomUUID(),
    organization_id: organization.id,
    type: request.type,
    source_asset: source.symbol,
    target_asset: target.symbol,
    source_amount: amount.toFixed(source.precision),
    target_amount: targetAmount.toFixed(target.precision),
    rate: rate.toFixed(),
    fee: fee.toFixed(source.precision),
    rail: request.rail ?? null,
    payment_account_id: request.paymentAccountId ?? null,
    wallet_address: request.walletAddress ?? null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + quoteLifetimeMs).toISOString(),
  };
  return presentQuote(await quotesRepository(services.storage.db).insert(row));
}

/** listQuotes: a page of the organization's quotes, newest first, expired ones included. */
export async function listQuotes(services: Services, organization: OrganizationRow, page: PageRequest) {
  const { items, total } = await quotesRepository(services.storage.db).page(organization.id, page);
  return { items: items.map(presentQuote), ...pageMeta(page, total) };
}
