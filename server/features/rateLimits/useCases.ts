/**
 * Rate limiting (v2.yaml, Rate limits: 429 `rate-limit-exceeded` with `Retry-After`). Fixed
 * windows (one second by default) counted in the database, so every process on one database
 * counts together and a restart forgets nothing that matters. The contract sets no
 * threshold: configured, off by default.
 *
 * v2 reads have two budgets, each counted on every read: one per organization read (the one
 * the path acts for), and one per API key across every organization it acts for. The first
 * alone let a key read each of its customers up to the limit, so its reads grew with its
 * number of customers; the second bounds them whatever that number.
 */
import { Problem } from '../../shared/problems.ts';
import type { Caller } from '../organizations/scope.ts';
import type { Db } from '../../storage/database.ts';
import type { Services } from '../../services.ts';
import { actFor } from '../organizations/scope.ts';
import { rateLimitsRepository } from './repository.ts';

export interface Allowance {
  /** The first bucket whose window is over its limit; undefined when the request is allowed. */
  exceeded: string | undefined;
  /** Seconds until the current window closes (whole seconds, at least 1). */
  retryAfterSeconds: number;
}

/** Counts one request against each bucket; allowed while every window's count stays within its bucket's limit. */
export async function take(db: Db, limits: Map<string, number>, now: Date, windowSeconds = 1): Promise<Allowance> {
  const nowSeconds = now.getTime() / 1000;
  const windowStart = Math.floor(nowSeconds / windowSeconds) * windowSeconds;
  const windows = rateLimitsRepository(db);
  const counts = await windows.count([...limits.keys()], windowStart);
  // The first request of a window clears the bucket's closed windows: one or two rows per bucket.
  const opened = [...counts].filter(([, count]) => count === 1).map(([bucket]) => bucket);
  if (opened.length > 0) await windows.forgetBefore(opened, windowStart);
  return {
    exceeded: [...limits].find(([bucket, limit]) => (counts.get(bucket) ?? 0) > limit)?.[0],
    retryAfterSeconds: Math.max(1, Math.ceil(windowStart + windowSeconds - nowSeconds)),
  };
}

export interface ReadLimits {
  /** Reads of one organization per second; 0 is no limit. */
  readsPerSecond: number;
  /** Reads with one API key per second, whichever organizations they are for; 0 is no limit. */
  keyReadsPerSecond: number;
  windowSeconds: number;
}

/**
 * Counts a v2 read against its organization, the one the path acts for when the key may act
 * for it, else the key's own (so made-up ids neither dodge the limit nor grow the table), and
 * against the caller's key.
 */
export async function limitReads(services: Pick<Services, 'storage'>, caller: Caller, pathOrganizationId: string | undefined, limits: ReadLimits, now: Date): Promise<void> {
  const { readsPerSecond, keyReadsPerSecond, windowSeconds } = limits;
  const budgets = new Map<string, number>();
  let organizationId = caller.organization.id;
  if (readsPerSecond > 0) {
    if (pathOrganizationId && pathOrganizationId.toLowerCase() !== organizationId) {
      organizationId = await actFor(services, caller, pathOrganizationId).then((o) => o.id, () => organizationId);
    }
    budgets.set(`reads:${organizationId}`, readsPerSecond * windowSeconds);
  }
  // The key's row id, which names it without any of its secret.
  if (keyReadsPerSecond > 0) budgets.set(`key-reads:${caller.keyId}`, keyReadsPerSecond * windowSeconds);
  if (budgets.size === 0) return;
  const { exceeded, retryAfterSeconds } = await take(services.storage.db, budgets, now, windowSeconds);
  if (exceeded === undefined) return;
  const per = windowSeconds === 1 ? 'second' : `${windowSeconds} seconds`;
  const retry = `retry in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`;
  throw new Problem(
    'rate-limit-exceeded',
    exceeded.startsWith('key-reads:')
      ? `Too many reads with this API key: at most ${budgets.get(exceeded)} per ${per}, whichever organizations they are for; ${retry}.`
      : `Too many reads for organization ${organizationId}: at most ${budgets.get(exceeded)} per ${per}; ${retry}.`,
    {},
    { 'Retry-After': String(retryAfterSeconds) },
  );
}
