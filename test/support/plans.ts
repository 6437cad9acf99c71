/** Query plans, to check that a list reads an index instead of the whole table. */
import { CompiledQuery, sql, type Compilable } from 'kysely';
import type { Storage } from '../../server/storage/database.ts';

/**
 * The plan as text. On PostgreSQL sequential scans are switched off for this query, so the
 * plan shows whether an index can serve it at all (on a small table a scan is cheaper and
 * would hide the answer).
 */
export async function explain(storage: Storage, query: Compilable): Promise<string> {
  const compiled = query.compile();
  if (storage.engine === 'sqlite') {
    const result = await storage.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
    return result.rows.map((row) => row.detail).join('\n');
  }
  return storage.db.transaction().execute(async (tx) => {
    await sql`SET LOCAL enable_seqscan = off`.execute(tx);
    const result = await tx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${compiled.sql}`, [...compiled.parameters]));
    return result.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

/** The plan reads this index and sorts nothing in memory. */
export function usesIndex(plan: string, index: string): boolean {
  return plan.includes(index) && !/USE TEMP B-TREE|(^|\s)Sort\b/m.test(plan);
}
