import { sql, type Kysely } from 'kysely';

/**
 * Dense per-scope positions and stored counts for every list (server/storage/positions.ts):
 * adds the position columns, numbers the rows already stored in the order their lists showed
 * them (created_at, then id), fills `list_counters`, and swaps the (scope, created_at, id)
 * indexes for (scope, position) and, where a list filters by date, (scope, created_at, position).
 *
 * The columns are nullable only so that a row written behind the repositories' back still
 * inserts; every row the server writes has them.
 */

interface Positioned {
  list: string;
  table: string;
  /** Scope columns, and the counter's scope text made of them. */
  scope: string[];
  position: string;
  /** The list filters by date: also an index on (scope, created_at, position). */
  dated?: boolean;
}

/** The lists numbered straight from one table (orders.covers is a union, below). */
const simple: Positioned[] = [
  { list: 'organizations.children', table: 'organizations', scope: ['parent_id'], position: 'child_position', dated: true },
  { list: 'payment_accounts', table: 'payment_accounts', scope: ['organization_id'], position: 'position' },
  { list: 'wallets', table: 'wallets', scope: ['organization_id'], position: 'position' },
  { list: 'orders.organization', table: 'orders', scope: ['organization_id'], position: 'organization_position' },
  ...['v1_wallets', 'v1_bank_accounts', 'v1_orders'].flatMap((table) => [
    { list: `${table}.partner`, table, scope: ['partner_id'], position: 'partner_position', dated: true },
    { list: `${table}.customer`, table, scope: ['customer_id'], position: 'customer_position', dated: true },
  ]),
  { list: 'webhook_subscriptions', table: 'webhook_subscriptions', scope: ['organization_id', 'surface'], position: 'position' },
  { list: 'webhook_deliveries', table: 'webhook_deliveries', scope: ['subscription_id'], position: 'position' },
];

/** The counter's scope text: the scope columns joined with ':' (an organization and a surface). */
const scopeText = (columns: string[], alias?: string) => columns.map((c) => (alias ? `${alias}.${c}` : c)).join(` || ':' || `);

function numberSimple(p: Positioned): string[] {
  const notNull = p.scope.map((c) => `${c} IS NOT NULL`).join(' AND ');
  return [
    `UPDATE ${p.table} SET ${p.position} = n.n FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY ${p.scope.join(', ')} ORDER BY created_at, id) AS n FROM ${p.table} WHERE ${notNull}) AS n WHERE n.id = ${p.table}.id`,
    `DELETE FROM list_counters WHERE list = '${p.list}'`,
    `INSERT INTO list_counters (list, scope, count, last_at) SELECT '${p.list}', ${scopeText(p.scope)}, COUNT(*), MAX(created_at) FROM ${p.table} WHERE ${notNull} GROUP BY ${p.scope.join(', ')}`,
  ];
}

/**
 * GET /orders of organization X lists X's orders and its direct children's. An order of O is
 * in the list of O (`cover_position`, only when O has a parent: a top-level organization's
 * own orders are in its list through `partner_id`) and of O's partner (`partner_id`, O itself
 * at the top, else O's parent, with `partner_position`). Both columns take numbers from one
 * counter per list, so each list's positions are dense across the two.
 */
const partnerOf = 'COALESCE(g.parent_id, g.id)';
const coversUnion = `
  SELECT o.id, 'p' AS kind, ${partnerOf} AS scope, o.created_at FROM orders o JOIN organizations g ON g.id = o.organization_id
  UNION ALL
  SELECT o.id, 'c' AS kind, o.organization_id AS scope, o.created_at FROM orders o JOIN organizations g ON g.id = o.organization_id WHERE g.parent_id IS NOT NULL`;

/**
 * Plain SQL statements (no parameters, both engines) numbering every order in all its lists
 * and rewriting their counters: one pass over the orders, since a million-row UPDATE is
 * what costs. Exported for bench/seed.ts, which bulk-copies orders.
 */
export function orderPositionStatements(): string[] {
  // Each order's entries in the covering lists, numbered per list, then folded back into one row per order.
  const numbered = `SELECT id, kind, ROW_NUMBER() OVER (PARTITION BY scope ORDER BY created_at, id) AS n FROM (${coversUnion}) AS u`;
  const perOrder = `
    SELECT o.id, ${partnerOf} AS partner_id,
      ROW_NUMBER() OVER (PARTITION BY o.organization_id ORDER BY o.created_at, o.id) AS op,
      (SELECT MAX(CASE WHEN e.kind = 'p' THEN e.n END) FROM numbered_entries e WHERE e.id = o.id) AS pp,
      (SELECT MAX(CASE WHEN e.kind = 'c' THEN e.n END) FROM numbered_entries e WHERE e.id = o.id) AS cp
    FROM orders o JOIN organizations g ON g.id = o.organization_id`;
  return [
    `DROP TABLE IF EXISTS numbered_entries`,
    `CREATE TEMPORARY TABLE numbered_entries AS ${numbered}`,
    `CREATE INDEX numbered_entries_id ON numbered_entries (id)`,
    `UPDATE orders SET partner_id = n.partner_id, partner_position = n.pp, cover_position = n.cp, organization_position = n.op FROM (${perOrder}) AS n WHERE n.id = orders.id`,
    `DROP TABLE numbered_entries`,
    `DELETE FROM list_counters WHERE list IN ('orders.covers', 'orders.organization')`,
    `INSERT INTO list_counters (list, scope, count, last_at) SELECT 'orders.covers', scope, COUNT(*), MAX(created_at) FROM (${coversUnion}) AS u GROUP BY scope`,
    `INSERT INTO list_counters (list, scope, count, last_at) SELECT 'orders.organization', organization_id, COUNT(*), MAX(created_at) FROM orders GROUP BY organization_id`,
  ];
}

/** The same for one list of a single table (bench/seed.ts renumbers the customers it adds). */
export function listPositionStatements(list: string): string[] {
  const positioned = simple.find((p) => p.list === list);
  if (!positioned) throw new Error(`no list ${list}`);
  return numberSimple(positioned);
}

const indexName = (p: Positioned, dated: boolean) => `${p.table}_${p.position}${dated ? '_created' : ''}`;

/** The indexes the position ones replace: each served one list's ORDER BY created_at, id. */
const replaced: { name: string; table: string; columns: string[] }[] = [
  { name: 'organizations_parent_created', table: 'organizations', columns: ['parent_id', 'created_at', 'id'] },
  { name: 'payment_accounts_organization', table: 'payment_accounts', columns: ['organization_id', 'created_at', 'id'] },
  { name: 'wallets_organization_created', table: 'wallets', columns: ['organization_id', 'created_at', 'id'] },
  { name: 'orders_organization_created', table: 'orders', columns: ['organization_id', 'created_at', 'id'] },
  { name: 'orders_created', table: 'orders', columns: ['created_at', 'id'] },
  ...['v1_wallets', 'v1_bank_accounts', 'v1_orders'].flatMap((table) => [
    { name: `${table}_partner_created`, table, columns: ['partner_id', 'created_at', 'id'] },
    { name: `${table}_customer_created`, table, columns: ['customer_id', 'created_at', 'id'] },
  ]),
  { name: 'webhook_deliveries_subscription', table: 'webhook_deliveries', columns: ['subscription_id', 'created_at'] },
];

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('list_counters')
    .addColumn('list', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('last_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('list_counters_pk', ['list', 'scope'])
    .execute();

  for (const p of simple) await db.schema.alterTable(p.table).addColumn(p.position, 'integer').execute();
  await db.schema.alterTable('orders').addColumn('partner_id', 'text').execute();
  await db.schema.alterTable('orders').addColumn('partner_position', 'integer').execute();
  await db.schema.alterTable('orders').addColumn('cover_position', 'integer').execute();

  for (const p of simple.filter((p) => p.table !== 'orders')) for (const statement of numberSimple(p)) await sql.raw(statement).execute(db);
  for (const statement of orderPositionStatements()) await sql.raw(statement).execute(db);

  for (const p of simple) {
    await db.schema.createIndex(indexName(p, false)).on(p.table).columns([...p.scope, p.position]).execute();
    if (p.dated) await db.schema.createIndex(indexName(p, true)).on(p.table).columns([...p.scope, 'created_at', p.position]).execute();
  }
  await db.schema.createIndex('orders_partner_position').on('orders').columns(['partner_id', 'partner_position']).execute();
  await db.schema.createIndex('orders_cover_position').on('orders').columns(['organization_id', 'cover_position']).execute();
  for (const r of replaced) await db.schema.dropIndex(r.name).execute();
}

export async function down(db: Kysely<any>) {
  for (const r of replaced) await db.schema.createIndex(r.name).on(r.table).columns(r.columns).execute();
  await db.schema.dropIndex('orders_partner_position').execute();
  await db.schema.dropIndex('orders_cover_position').execute();
  for (const p of simple) {
    await db.schema.dropIndex(indexName(p, false)).execute();
    if (p.dated) await db.schema.dropIndex(indexName(p, true)).execute();
    await db.schema.alterTable(p.table).dropColumn(p.position).execute();
  }
  for (const column of ['partner_id', 'partner_position', 'cover_position']) await db.schema.alterTable('orders').dropColumn(column).execute();
  await db.schema.dropTable('list_counters').execute();
}
