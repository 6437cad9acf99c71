/** Request counts per bucket and fixed window (rate_limit_windows). */
import { sql } from 'kysely';
import type { Db } from '../../storage/database.ts';

export function rateLimitsRepository(db: Db) {
  return {
    /**
     * Counts one request in each bucket's window, in one statement (an upsert), and answers
     * each window's count by bucket. Rows are taken in bucket order, so two statements that
     * count the same buckets lock them in the same order on PostgreSQL.
     */
    async count(buckets: string[], windowStart: number): Promise<Map<string, number>> {
      const rows = await db
        .insertInto('rate_limit_windows')
        .values([...buckets].sort().map((bucket) => ({ bucket, window_start: windowStart, count: 1 })))
        .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql<number>`rate_limit_windows.count + 1` }))
        .returning(['bucket', 'count'])
        .execute();
      return new Map(rows.map((row) => [row.bucket, Number(row.count)]));
    },

    /** Deletes the buckets' windows that began before `windowStart`. */
    async forgetBefore(buckets: string[], windowStart: number): Promise<void> {
      await db.deleteFrom('rate_limit_windows').where('bucket', 'in', buckets).where('window_start', '<', windowStart).execute();
    },
  };
}
