/** Request counts per bucket and fixed window (rate_limit_windows). */
import { sql } from 'kysely';
import type { Db } from '../../storage/database.ts';

export function rateLimitsRepository(db: Db) {
  return {
    /** Counts one request in the bucket's window, in one statement (an upsert), and answers the window's count. */
    async count(bucket: string, windowStart: number): Promise<number> {
      const row = await db
        .insertInto('rate_limit_windows')
        .values({ bucket, window_start: windowStart, count: 1 })
        .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql<number>`rate_limit_windows.count + 1` }))
        .returning('count')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Deletes the bucket's windows that began before `windowStart`. */
    async forgetBefore(bucket: string, windowStart: number): Promise<void> {
      await db.deleteFrom('rate_limit_windows').where('bucket', '=', bucket).where('window_start', '<', windowStart).execute();
    },
  };
}
