/**
 * Bulk seeding for the scaling runs: copies of one real order (made through the API, so
 * every column is what the server writes) and of its quote, spread over the partner and
 * its customer organizations, inserted with plain SQL in one transaction: prepared
 * statements on SQLite, `INSERT … SELECT generate_series` on PostgreSQL.
 *
 * Copy i was created 10 ms × (i + 1) before the real order, so the newest orders are the
 * same at every scale, and its ids are time-ordered (UUIDv7 layout) from that moment: every
 * index grows at one end, which keeps a million inserts to seconds instead of minutes.
 * Foreign keys are not checked while copying (the copies reference rows that exist).
 *
 * Copies keep the order `created` with its funding deadline a year away, so no background
 * job (deadline cancelation, settlement) picks a million of them up during a run.
 *
 * The copies are older than the orders already stored, so after copying, every order and
 * customer is numbered again in its lists and the list counters rewritten, with the
 * statements of migration 100-list-positions: pages are then read as the server reads them.
 */
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { listPositionStatements, orderPositionStatements } from '../server/storage/migrations/100-list-positions.ts';

export type Database = { engine: 'sqlite'; dataDir: string } | { engine: 'postgres'; url: string };

type Row = Record<string, unknown>;

export interface SeedPlan {
  partnerId: string;
  /** The real order to copy. */
  templateOrderId: string;
  /** Customer organizations to create (once) and spread orders over with the partner. */
  customers: number;
  /** Orders wanted in total after seeding. */
  total: number;
}

export interface Seeded {
  customerIds: string[];
  inserted: number;
  seconds: number;
}

/** A UUIDv7-shaped id: 48-bit milliseconds, then `kind` and the copy's index (unique per kind). */
export function timeOrderedId(ms: number, kind: 'a' | 'b', index: number): string {
  const hex = `${ms.toString(16).padStart(12, '0')}7000${kind === 'a' ? '8a' : '8b'}${index.toString(16).padStart(14, '0')}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const customerIdsOf = (partnerId: string, customers: number) =>
  Array.from({ length: customers }, (_, i) => `${partnerId.slice(0, 24)}${(0xb0000000 + i).toString(16).padStart(12, '0')}`);

const copyMs = (templateMs: number, index: number) => templateMs - (index + 1) * 10;

/**
 * A copy's stored body (features/orders/presenters.ts `orderBody`): the template's, with the
 * members a copy changes replaced, each one the JSON member text `"name":"value"` found once
 * in the template's body. The template is a `created` order as the server stored it, and a
 * copy differs from it only in these members, so the copy's body and tag are what the server
 * would store for the copy's columns.
 */
type Copy = { id: string; quote_id: string; organization_id: string; at: string };
const copied: [member: string, template: (order: Row) => unknown, copy: keyof Copy][] = [
  ['id', (o) => o.id, 'id'],
  ['quoteId', (o) => o.quote_id, 'quote_id'],
  ['organizationId', (o) => o.organization_id, 'organization_id'],
  ['createdAt', (o) => o.created_at, 'at'],
  ['updatedAt', (o) => o.updated_at, 'at'],
];
const memberText = (name: string, value: string) => `${JSON.stringify(name)}:${JSON.stringify(value)}`;

/** The template's body and each copied member's text in it. */
function templateBody(order: Row): { body: string; members: string[] } {
  const { body, status } = order;
  if (typeof body !== 'string' || status !== 'created') throw new Error(`template order ${String(order.id)} is not a created order with a stored body`);
  const members = copied.map(([name, value]) => {
    const text = memberText(name, String(value(order)));
    if (body.split(text).length !== 2) throw new Error(`template order ${String(order.id)}: ${text} is not in its body exactly once`);
    return text;
  });
  return { body, members };
}

function copiedBody(order: Row) {
  const { body, members } = templateBody(order);
  return (copy: Copy) => members.reduce((text, member, i) => text.replace(member, memberText(copied[i]![0], copy[copied[i]![2]])), body);
}

/** The same in SQL, each copy value an SQL expression (uuids and timestamps: nothing to escape); the texts become parameters. */
function copiedBodySql(order: Row, copy: Copy, params: unknown[]) {
  const { body, members } = templateBody(order);
  params.push(body);
  let text = `$${params.length}::text`;
  for (const [i, member] of members.entries()) {
    params.push(member);
    text = `replace(${text}, $${params.length}::text, '"${copied[i]![0]}":"' || ${copy[copied[i]![2]]} || '"')`;
  }
  return text;
}

/** Numbers every order and customer in its lists again (see above). */
const renumbering = [...listPositionStatements('organizations.children'), ...orderPositionStatements()];

export async function seedOrders(database: Database, plan: SeedPlan): Promise<Seeded> {
  const started = performance.now();
  const result = database.engine === 'sqlite' ? seedSqlite(database.dataDir, plan) : await seedPostgres(database.url, plan);
  return { ...result, seconds: (performance.now() - started) / 1000 };
}

function seedSqlite(dataDir: string, plan: SeedPlan) {
  const db = new SQLite(join(dataDir, 'ramp.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    db.pragma('foreign_keys = OFF');
    const order = db.prepare('SELECT * FROM orders WHERE id = ?').get(plan.templateOrderId) as Row | undefined;
    if (!order) throw new Error(`template order ${plan.templateOrderId} not found`);
    const quote = db.prepare('SELECT * FROM quotes WHERE id = ?').get(order.quote_id) as Row;
    const partner = db.prepare('SELECT * FROM organizations WHERE id = ?').get(plan.partnerId) as Row;
    const customerIds = customerIdsOf(plan.partnerId, plan.customers);
    const existing = (db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n;
    const count = Math.max(0, plan.total - existing);
    const insertFor = (table: string, row: Row) => {
      const columns = Object.keys(row);
      return db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
    };
    const insertOrganization = db.prepare(
      `INSERT OR IGNORE INTO organizations (${Object.keys(partner).join(', ')}) VALUES (${Object.keys(partner).map((c) => `@${c}`).join(', ')})`,
    );
    const insertQuote = insertFor('quotes', quote);
    const insertOrder = insertFor('orders', order);
    const deadline = new Date(Date.now() + 365 * 24 * 3600_000).toISOString();
    const owners = [plan.partnerId, ...customerIds];
    const templateMs = Date.parse(order.created_at as string);
    const bodyOf = copiedBody(order);
    db.transaction(() => {
      for (const [i, id] of customerIds.entries()) {
        const at = new Date(Date.parse(partner.created_at as string) + i + 1).toISOString();
        insertOrganization.run({ ...partner, id, parent_id: plan.partnerId, type: 'business', display_name: `Bench customer ${i}`, created_at: at, updated_at: at });
      }
      // Copies take no place in the quotes list (listQuotes; the bench never lists quotes): no position.
      const q: Row = { ...quote, position: null };
      const o: Row = { ...order, status: 'created', funding_deadline: deadline, settle_at: null };
      // Index 0 is the real order; copies continue after the orders already stored.
      for (let i = existing; i < existing + count; i++) {
        const ms = copyMs(templateMs, i);
        const at = new Date(ms).toISOString();
        const organizationId = owners[i % owners.length]!;
        q.id = timeOrderedId(ms, 'a', i);
        q.organization_id = organizationId;
        q.created_at = at;
        insertQuote.run(q);
        o.id = timeOrderedId(ms, 'b', i);
        o.quote_id = q.id;
        o.organization_id = organizationId;
        o.created_at = at;
        o.updated_at = at;
        o.body = bodyOf({ id: o.id as string, quote_id: q.id as string, organization_id: organizationId, at });
        insertOrder.run(o);
      }
      for (const statement of renumbering) db.exec(statement);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    // No ANALYZE: the server never runs it, so its planner works without statistics here too.
    return { customerIds, inserted: count };
  } finally {
    db.close();
  }
}

async function seedPostgres(url: string, plan: SeedPlan) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const order = (await client.query('SELECT * FROM orders WHERE id = $1', [plan.templateOrderId])).rows[0] as Row | undefined;
    if (!order) throw new Error(`template order ${plan.templateOrderId} not found`);
    const quote = (await client.query('SELECT * FROM quotes WHERE id = $1', [order.quote_id])).rows[0] as Row;
    const partner = (await client.query('SELECT * FROM organizations WHERE id = $1', [plan.partnerId])).rows[0] as Row;
    const customerIds = customerIdsOf(plan.partnerId, plan.customers);
    const existing = Number((await client.query('SELECT COUNT(*) AS n FROM orders')).rows[0].n);
    const count = Math.max(0, plan.total - existing);
    await client.query('BEGIN');
    // Foreign keys are triggers on PostgreSQL; a superuser (the bench's own server) skips them.
    await client.query('SAVEPOINT replica');
    await client.query("SET LOCAL session_replication_role = 'replica'").then(
      () => client.query('RELEASE SAVEPOINT replica'),
      () => client.query('ROLLBACK TO SAVEPOINT replica'),
    );
    for (const [i, id] of customerIds.entries()) {
      const at = new Date(Date.parse(partner.created_at as string) + i + 1).toISOString();
      const row: Row = { ...partner, id, parent_id: plan.partnerId, type: 'business', display_name: `Bench customer ${i}`, created_at: at, updated_at: at };
      const columns = Object.keys(row);
      await client.query(
        `INSERT INTO organizations (${columns.join(', ')}) VALUES (${columns.map((_, j) => `$${j + 1}`).join(', ')}) ON CONFLICT (id) DO NOTHING`,
        columns.map((c) => row[c]),
      );
    }
    if (count > 0) {
      // Row i of the series: its owner, its time, and ids derived from a per-run salt.
      const owners = [plan.partnerId, ...customerIds];
      const templateMs = Date.parse(order.created_at as string);
      // Row i of the series, its time and its id parts, computed once per row.
      const series =
        `generate_series(${existing}, ${existing + count - 1}) AS i CROSS JOIN LATERAL (` +
        `SELECT to_char(to_timestamp(ms / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, ` +
        `lpad(to_hex(ms), 12, '0') || '70008' AS head, lpad(to_hex(i), 14, '0') AS tail ` +
        `FROM (SELECT ${templateMs}::bigint - (i + 1) * 10 AS ms) AS m) AS v`;
      const at = 'v.at';
      const owner = `($1::text[])[(i % ${owners.length}) + 1]`;
      // timeOrderedId() in SQL: 32 hex digits read as a uuid print in its dashed form.
      const id = (kind: 'a' | 'b') => `(v.head || '${kind}' || v.tail)::uuid::text`;
      const valuesOf = (row: Row, overrides: Record<string, string>, params: unknown[]) =>
        Object.keys(row).map((column) => {
          if (column in overrides) return overrides[column]!;
          params.push(row[column]);
          return `$${params.length}::text`;
        });
      const quoteParams: unknown[] = [owners];
      // Copies take no place in the quotes list (listQuotes; the bench never lists quotes): a NULL position, not a text parameter.
      const quoteValues = valuesOf(quote, { id: id('a'), organization_id: owner, created_at: at, position: 'NULL' }, quoteParams);
      await client.query(`INSERT INTO quotes (${Object.keys(quote).join(', ')}) SELECT ${quoteValues.join(', ')} FROM ${series}`, quoteParams);
      const deadline = new Date(Date.now() + 365 * 24 * 3600_000).toISOString();
      const orderParams: unknown[] = [owners];
      const orderRow = { ...order, status: 'created', funding_deadline: deadline, settle_at: null };
      // Positions (integers) are numbered after copying, with the other orders.
      const positions = { partner_id: 'NULL', partner_position: 'NULL', cover_position: 'NULL', organization_position: 'NULL' };
      const copy = { id: id('b'), quote_id: id('a'), organization_id: owner, at };
      const body = copiedBodySql(order, copy, orderParams);
      const orderValues = valuesOf(orderRow, { ...copy, created_at: at, updated_at: at, ...positions, body }, orderParams);
      await client.query(`INSERT INTO orders (${Object.keys(orderRow).join(', ')}) SELECT ${orderValues.join(', ')} FROM ${series}`, orderParams);
    }
    for (const statement of renumbering) await client.query(statement);
    await client.query('COMMIT');
    // Autovacuum would analyze a table that grew this much within a minute, and vacuum the dead
    // version of every order the renumbering left (a million rows of over a kilobyte each, their
    // stored bodies included): done now, before the measurements, not during them.
    await client.query('VACUUM ANALYZE');
    return { customerIds, inserted: count };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** Up to `limit` stored orders picked at random, to read back. */
export async function sampleOrders(database: Database, limit: number): Promise<{ organizationId: string; id: string }[]> {
  const sql = `SELECT organization_id AS "organizationId", id FROM orders ORDER BY random() LIMIT ${Number(limit)}`;
  if (database.engine === 'sqlite') {
    const db = new SQLite(join(database.dataDir, 'ramp.sqlite'), { readonly: true });
    try {
      return db.prepare(sql).all() as { organizationId: string; id: string }[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}
