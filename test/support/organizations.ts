/**
 * What a refused request must leave unchanged: every table's row count. Organizations
 * themselves are made by fixtures.ts.
 */
import type { TestServer } from './server.ts';

/** Row counts of every table: what a refused request must leave unchanged. */
export async function rowCounts(server: TestServer): Promise<Record<string, number>> {
  const db = server.services.storage.db;
  const tables = (await db.introspection.getTables()).map((t) => t.name).filter((name) => !name.startsWith('kysely_'));
  const counts: Record<string, number> = {};
  for (const table of tables.sort()) {
    const { n } = await db.selectFrom(table as 'organizations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(n);
  }
  return counts;
}
