/**
 * What a refused request must leave unchanged: every table's row count. Organizations
 * themselves are made by fixtures.ts.
 */
import type { TestServer } from './server.ts';

/**
 * The sandbox's request log records every request of a partner's keys, refused ones above
 * all (what a partner opens first on a 4xx): it is the record of the request, not state the
 * request changed, so what a refused request must leave unchanged leaves it out.
 */
export const requestLogTable = 'request_log';

/** Row counts of every table but the request log: what a refused request must leave unchanged. */
export async function rowCounts(server: TestServer): Promise<Record<string, number>> {
  const db = server.services.storage.db;
  const tables = (await db.introspection.getTables()).map((t) => t.name).filter((name) => !name.startsWith('kysely_') && name !== requestLogTable);
  const counts: Record<string, number> = {};
  for (const table of tables.sort()) {
    const { n } = await db.selectFrom(table as 'organizations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(n);
  }
  return counts;
}
