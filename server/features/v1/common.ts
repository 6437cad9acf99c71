/** What the v1 money flows share: the customer scope, list pages, tokens and amounts. */
import { Decimal } from 'decimal.js';
import type { Config } from '../../config.ts';
import type { Caller } from '../organizations/scope.ts';
import { Problem } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import { organizationsRepository, type OrganizationRow } from '../organizations/repository.ts';
import type { V1ListRequest, V1Scope } from './repository.ts';
import { pageMeta, v1Page, type V1PaginationBody } from '../../shared/pagination.ts';
import type { PriceFeed } from '../prices/feed.ts';
import { stablecoins } from '../../shared/world.ts';

/** A customer the key may act for: a direct child of its organization; anything else is 404. */
export async function v1Customer(services: Pick<Services, 'storage'>, caller: Caller, customerId: string): Promise<OrganizationRow> {
  const customer = await organizationsRepository(services.storage.db).find(customerId.toLowerCase());
  if (!customer || customer.parent_id !== caller.organization.id) throw new Problem('not-found', 'Customer not found');
  return customer;
}

/** What a list covers: one customer of the caller (404 unless a direct child), or all of them. */
export async function v1Scope(services: Pick<Services, 'storage'>, caller: Caller, customerId?: string): Promise<V1Scope> {
  return customerId === undefined ? { partnerId: caller.organization.id } : { customerId: (await v1Customer(services, caller, customerId)).id };
}

/** An object of the caller's customers, or 404 with the object's message (existence does not leak). */
export function ownedBy<T extends { partner_id: string }>(row: T | undefined, caller: Caller, notFound: string): T {
  if (!row || row.partner_id !== caller.organization.id) throw new Problem('not-found', notFound);
  return row;
}

/**
 * The page asked for: the body, with `pageNumber` and `pageSize` of the query (the `next`
 * link) taking precedence, so POSTing the same body to `next` gives the next page.
 */
export function v1ListRequest(body: V1PaginationBody | undefined, query: { pageNumber?: number; pageSize?: number }): V1ListRequest {
  return v1Page({
    ...body,
    ...(query.pageNumber !== undefined ? { pageNumber: query.pageNumber } : {}),
    ...(query.pageSize !== undefined ? { pageSize: query.pageSize } : {}),
  });
}

/** The v1 envelope; `next` is an absolute URL on the configured base URL, null on the last page. */
export function v1Envelope<T>(config: Pick<Config, 'baseUrl'>, path: string, page: V1ListRequest, items: T[], totalItems: number) {
  const meta = pageMeta(page, totalItems);
  const next = page.number + 1 < meta.totalPages ? `${config.baseUrl}${path}?pageNumber=${page.number + 1}&pageSize=${page.size}` : null;
  return { items, ...meta, next };
}

/** Whether the service trades this token symbol (the feed's tokens and USD stablecoins); `now` is real time, as the feed's. */
export function isKnownToken(prices: PriceFeed, symbol: string, now: Date): boolean {
  return stablecoins.includes(symbol) || prices.tokenCost(symbol, now)?.token_symbol === symbol;
}

export function assertKnownToken(prices: PriceFeed, symbol: string, now: Date): void {
  if (!isKnownToken(prices, symbol, now)) throw new Problem('invalid-request', `Unknown token ${symbol}`);
}

/** An amount that must be greater than 0 (the contract's pattern allows a sign). */
export function positiveAmount(value: string, field: string): Decimal {
  const amount = new Decimal(value);
  if (!amount.greaterThan(0)) throw new Problem('invalid-request', `${field} must be greater than 0`);
  return amount;
}

/** A v1 object as its GET returns it: fields that do not apply are omitted, never null (the V1 schemas mark none nullable). */
export const present = <T extends object>(fields: { [K in keyof T]: T[K] | null | undefined }): T =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined)) as T;
