/** Query plans, to check that a list reads an index instead of the whole table. */
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type Compilable } from 'kysely';
import type { Storage } from '../../server/storage/database.ts';
import type { Tables } from '../../server/storage/tables.ts';
import { testPool, type openedTestStorage } from './storage.ts';

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

/** A second connection that records every statement the repositories send (close it with `db.destroy()`). */
export function recordingDb(opened: ReturnType<typeof openedTestStorage>) {
  const captured: CompiledQuery[] = [];
  const log = (event: { level: string; query: CompiledQuery }) => {
    if (event.level === 'query') captured.push(event.query);
  };
  const dialect = opened.storage.engine === 'sqlite'
    ? new SqliteDialect({ database: new SQLite(join(opened.database.env.RAMP_DATA_DIR!, 'ramp.sqlite')) })
    : new PostgresDialect({ pool: testPool(opened.database.env.DATABASE_URL!) });
  return { db: new Kysely<Tables>({ dialect, log }), captured };
}
