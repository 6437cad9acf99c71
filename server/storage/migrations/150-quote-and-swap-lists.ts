import { sql, type Kysely } from 'kysely';

/**
 * List positions (storage/positions.ts) for the two lists added after 100-list-positions:
 * an organization's quotes (`GET /organization/{organizationId}/quotes`, listQuotes) and a
 * customer's v1 swaps (`POST /ramp/customer/{customer_id}/swaps`, v1ListCustomerSwaps), whose
 * rows also take a place in their partner's list, as v1 orders do, so a partner-wide list
 * needs no renumbering. Numbers the rows already stored in creation order (created_at, then
 * id), fills their counters and adds the position indexes (and, for the v1 lists, which
 * filter by date, the (scope, created_at, position) ones), as 100-list-positions did.
 */
interface Positioned {
  list: string;
  table: string;
  scope: string;
  position: string;
  dated: boolean;
}

const lists: Positioned[] = [
  { list: 'quotes', table: 'quotes', scope: 'organization_id', position: 'position', dated: false },
  { list: 'v1_swaps.partner', table: 'v1_swaps', scope: 'partner_id', position: 'partner_position', dated: true },
  { list: 'v1_swaps.customer', table: 'v1_swaps', scope: 'customer_id', position: 'customer_position', dated: true },
];

const indexName = (p: Positioned, dated: boolean) => `${p.table}_${p.position}${dated ? '_created' : ''}`;

export async function up(db: Kysely<any>) {
  for (const p of lists) {
    await db.schema.alterTable(p.table).addColumn(p.position, 'integer').execute();
    await sql
      .raw(`UPDATE ${p.table} SET ${p.position} = n.n FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY ${p.scope} ORDER BY created_at, id) AS n FROM ${p.table}) AS n WHERE n.id = ${p.table}.id`)
      .execute(db);
    await sql.raw(`DELETE FROM list_counters WHERE list = '${p.list}'`).execute(db);
    await sql.raw(`INSERT INTO list_counters (list, scope, count, last_at) SELECT '${p.list}', ${p.scope}, COUNT(*), MAX(created_at) FROM ${p.table} GROUP BY ${p.scope}`).execute(db);
    await db.schema.createIndex(indexName(p, false)).on(p.table).columns([p.scope, p.position]).execute();
    if (p.dated) await db.schema.createIndex(indexName(p, true)).on(p.table).columns([p.scope, 'created_at', p.position]).execute();
  }
}

export async function down(db: Kysely<any>) {
  for (const p of lists) {
    await db.schema.dropIndex(indexName(p, false)).execute();
    if (p.dated) await db.schema.dropIndex(indexName(p, true)).execute();
    await db.schema.alterTable(p.table).dropColumn(p.position).execute();
    await sql.raw(`DELETE FROM list_counters WHERE list = '${p.list}'`).execute(db);
  }
}
