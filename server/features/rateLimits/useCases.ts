/**
 * Rate limiting (v2.yaml, Rate limits: 429 `rate-limit-exceeded` with `Retry-After`, "for
 * example reads for one organization"). Fixed windows (one second by default)
 * counted in the database, so every process on one database counts together and a restart
 * forgets nothing that matters. The contract sets no threshold: configured, off by
 * default.
 */
import { Problem } from '../../shared/problems.ts';
import type { Caller } from '../organizations/scope.ts';
import type { Db } from '../../storage/database.ts';
import { actFor } from '../organizations/scope.ts';
import { rateLimitsRepository } from './repository.ts';

export interface Allowance {
  allowed: boolean;
  /** Seconds until the current window closes (whole seconds, at least 1). */
  retryAfterSeconds: number;
}

/** Counts one request against `bucket`; allowed while the window's count stays within `limit`. */
export async function take(db: Db, bucket: string, limit: number, now: Date, windowSeconds = 1): Promise<Allowance> {
  const nowSeconds = now.getTime() / 1000;
  const windowStart = Math.floor(nowSeconds / windowSeconds) * windowSeconds;
  const windows = rateLimitsRepository(db);
  const count = await windows.count(bucket, windowStart);
  // The first request of a window clears the bucket's closed windows: one or two rows per bucket.
  if (count === 1) await windows.forgetBefore(bucket, windowStart);
  return { allowed: count <= limit, retryAfterSeconds: Math.max(1, Math.ceil(windowStart + windowSeconds - nowSeconds)) };
}

/**
 * v2 reads are counted per organization: the one the path acts for, when the key may act for
 * it, else the key's own (so made-up ids neither dodge the limit nor grow the table).
 */
export async function limitReads(db: Db, caller: Caller, pathOrganizationId: string | undefined, limits: { readsPerSecond: number; windowSeconds: number }, now: Date): Promise<void> {
  const { readsPerSecond, windowSeconds } = limits;
  if (!(readsPerSecond > 0)) return;
  let organizationId = caller.organization.id;
  if (pathOrganizationId && pathOrganizationId.toLowerCase() !== organizationId) {
    organizationId = await actFor(db, caller, pathOrganizationId).then((o) => o.id, () => organizationId);
  }
  const { allowed, retryAfterSeconds } = await take(db, `reads:${organizationId}`, readsPerSecond * windowSeconds, now, windowSeconds);
  if (!allowed) {
    throw new Problem(
      'rate-limit-exceeded',
      `Too many reads for organization ${organizationId}: at most ${readsPerSecond * windowSeconds} per ${windowSeconds === 1 ? 'second' : `${windowSeconds} seconds`}; retry in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`,
      {},
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}
