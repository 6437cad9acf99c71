/**
 * Dense per-scope positions, so that every list page costs the same at a million rows as at
 * a thousand. The contract pages by zero-based page numbers (PageMeta), which OFFSET
 * serves by walking every row before the page and COUNT(*) by walking them all. Instead,
 * each listed row stores its position (1, 2, 3, … in creation order) in every list it
 * appears in, and `list_counters` holds each list's count: page n is then the position range
 * `BETWEEN lo AND hi` of a `(scope, position)` index, and its total is one row.
 *
 * Positions stay dense and gap-free because they are taken from the counter inside the
 * inserting transaction: the upsert locks the counter row on PostgreSQL until commit (SQLite
 * serializes writers), so inserts into one scope take turns, and a rollback (or an insert a
 * unique index refused) gives the number back. The counter also keeps the latest
 * `created_at` of its scope, and a new row is never stamped earlier than that, so
 * `created_at` order is position order: a date range is then a position range too
 * (`positionBounds`).
 *
 * Deadlocks: a transaction that takes several counters takes them in `lockOrder` (the order
 * of `listNames` below, and within one list an ancestor's scope before its descendants').
 * Events and their webhook deliveries come last: they are written at the end of a change (the
 * partner's `events` counter, then each event's subscriptions in id order), and the
 * transactions that record several events (verification) always record their types in the
 * same order.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import { runCompiled, shareCompiled } from './compiled.ts';
import type { Db, Tx } from './database.ts';
import type { Tables } from './tables.ts';

/** Every list kept in `list_counters`, in the order a transaction must take their counters. */
export const listNames = [
  'organizations.children',
  'payment_accounts',
  'wallets',
  /** GET /organization/{organizationId}/quotes (150-quote-and-swap-lists). */
  'quotes',
  /** GET /orders: the orders of an organization and of its direct children. */
  'orders.covers',
  /** GET /orders?organizationId: one organization's orders. */
  'orders.organization',
  'v1_wallets.partner',
  'v1_wallets.customer',
  'v1_bank_accounts.partner',
  'v1_bank_accounts.customer',
  'v1_orders.partner',
  'v1_orders.customer',
  'v1_swaps.partner',
  'v1_swaps.customer',
  'webhook_subscriptions',
  /** GET /sandbox/events: a partner's events, its customers' included, in the order they were recorded. */
  'events',
  'webhook_deliveries',
] as const;
export type ListName = (typeof listNames)[number];

export interface Counter {
  list: ListName;
  scope: string;
}

export interface Taken {
  /** The new row's position in each counter asked for, in the order asked. */
  positions: number[];
  /** The `created_at` to store: `now`, or the latest of the scopes if that is later. */
  at: string;
}

/** Runs `work` in the caller's transaction, or in a new one. */
export function inTransaction<T>(db: Db | Tx, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.isTransaction
    ? work(db as Tx)
    : db.transaction().execute((tx) => {
        shareCompiled(db, tx);
        return work(tx);
      });
}

/** The lock order of counters: by list, then as given (the caller puts ancestors first). */
function lockOrder(counters: Counter[]): number[] {
  return counters.map((_, i) => i).sort((a, b) => listNames.indexOf(counters[a]!.list) - listNames.indexOf(counters[b]!.list) || a - b);
}

/**
 * Takes the next position in one list: one atomic upsert, which on PostgreSQL holds the
 * counter row locked until `tx` ends. Must run inside the transaction that inserts the row.
 */
export async function nextPosition(tx: Tx, list: ListName, scope: string, now: string): Promise<{ position: number; at: string }> {
  const upsert = () => sql<{ count: number; last_at: string }>`
    INSERT INTO list_counters (list, scope, count, last_at) VALUES (${list}, ${scope}, 1, ${now})
    ON CONFLICT (list, scope) DO UPDATE SET
      count = list_counters.count + 1,
      last_at = CASE WHEN excluded.last_at > list_counters.last_at THEN excluded.last_at ELSE list_counters.last_at END
    RETURNING count, last_at`;
  const [taken] = (await runCompiled(tx, 'nextPosition', () => ({ compile: () => upsert().compile(tx) }), [list, scope, now])) as [{ count: number; last_at: string }];
  return { position: Number(taken.count), at: taken.last_at };
}

/**
 * The next position in each of several lists a row appears in, taken in lock order. The
 * row's `created_at` is the latest of the scopes' times, written back to every counter so
 * that each scope stays in time order.
 */
export async function nextPositions(tx: Tx, counters: Counter[], now: string): Promise<Taken> {
  const positions: number[] = new Array(counters.length);
  const times: string[] = new Array(counters.length);
  for (const i of lockOrder(counters)) {
    const taken = await nextPosition(tx, counters[i]!.list, counters[i]!.scope, now);
    positions[i] = taken.position;
    times[i] = taken.at;
  }
  const at = times.reduce((a, b) => (b > a ? b : a), now);
  for (const [i, time] of times.entries()) {
    if (time < at) await tx.updateTable('list_counters').set({ last_at: at }).where('list', '=', counters[i]!.list).where('scope', '=', counters[i]!.scope).execute();
  }
  return { positions, at };
}

/** A list's total: its counter, 0 when nothing was ever listed in the scope. */
export async function countOf(db: Db | Tx, list: ListName, scope: string): Promise<number> {
  const [row] = await runCompiled(db, 'countOf', () => db.selectFrom('list_counters').select('count').where('list', '=', list).where('scope', '=', scope), [list, scope]);
  return Number(row?.count ?? 0);
}

/**
 * Deleting from a list: `lockList` first (so a concurrent insert or deletion in the scope
 * waits, and the row's position read after it is current), then delete the row, move the
 * later rows of the scope up one and `shrinkList`, in one transaction. This walks the rest of
 * the scope, which is fine only for the lists that allow deletion (webhook subscriptions: a
 * handful per organization).
 */
export async function lockList(tx: Tx, list: ListName, scope: string): Promise<void> {
  // A no-op update takes the counter's row lock on PostgreSQL and the write lock on SQLite.
  await sql`UPDATE list_counters SET count = count WHERE list = ${list} AND scope = ${scope}`.execute(tx);
}

export async function shrinkList(tx: Tx, list: ListName, scope: string): Promise<void> {
  await sql`UPDATE list_counters SET count = count - 1 WHERE list = ${list} AND scope = ${scope}`.execute(tx);
}

/**
 * The largest position a list holds: position columns are SQL `integer`, 4 bytes on
 * PostgreSQL. A cursor or bound the contract allows past it (int64) names no row, and must
 * not reach PostgreSQL, which refuses the comparison.
 */
export const maxPosition = 2_147_483_647;

export interface PositionRange {
  /** First and last position of the page, inclusive; `lo > hi` for an empty page. */
  lo: number;
  hi: number;
}

/**
 * The positions of page `number` (zero-based) of `size` items, among the positions
 * `first..last` of a list (1..total without a filter), oldest first (`asc`) or newest first
 * (`desc`). Pure arithmetic: no row is read to find a page.
 */
export function pageRange(bounds: { first: number; last: number }, size: number, number: number, order: 'asc' | 'desc'): PositionRange {
  const skip = size * number;
  const empty = { lo: 1, hi: 0 };
  if (bounds.last < bounds.first || !Number.isSafeInteger(skip) || skip > bounds.last - bounds.first) return empty;
  if (order === 'asc') {
    const lo = bounds.first + skip;
    return { lo, hi: Math.min(bounds.last, lo + size - 1) };
  }
  const hi = bounds.last - skip;
  return { lo: Math.max(bounds.first, hi - size + 1), hi };
}

/** The number of items between two bounds (0 when empty). */
export const boundsSize = (bounds: { first: number; last: number }) => Math.max(0, bounds.last - bounds.first + 1);

/**
 * Where a date filter (created strictly after `from`, at or before `to`) starts and ends in
 * a scope's positions: since `created_at` grows with the position, the rows inside are one
 * range, found by two lookups of the `(scope, created_at, position)` index.
 */
export async function positionBounds(
  db: Db | Tx,
  where: { table: string; scope: Record<string, string>; position: string },
  total: number,
  created: { from?: string | undefined; to?: string | undefined },
): Promise<{ first: number; last: number }> {
  const scope = sql.join(Object.entries(where.scope).map(([column, value]) => sql`${sql.ref(column)} = ${value}`), sql` AND `);
  const position = sql.ref(where.position);
  const table = sql.table(where.table);
  let first = 1;
  let last = total;
  if (created.from) {
    const { rows } = await sql<{ p: number }>`SELECT ${position} AS p FROM ${table} WHERE ${scope} AND created_at > ${created.from} AND ${position} IS NOT NULL ORDER BY created_at, ${position} LIMIT 1`.execute(db);
    first = rows[0] ? Number(rows[0].p) : total + 1;
  }
  if (created.to) {
    const { rows } = await sql<{ p: number }>`SELECT ${position} AS p FROM ${table} WHERE ${scope} AND created_at <= ${created.to} AND ${position} IS NOT NULL ORDER BY created_at DESC, ${position} DESC LIMIT 1`.execute(db);
    last = rows[0] ? Number(rows[0].p) : 0;
  }
  return { first, last };
}

/** Where a list lives: its counter, and the rows of its scope with their position column. */
export interface ListedRows<T extends keyof Tables> {
  list: ListName;
  /** The counter's scope (`scope` of `list_counters`). */
  counter: string;
  table: T;
  /** Equalities that select the scope's rows, on the leading columns of the position index. */
  scope: Record<string, string>;
  position: string;
  /** The columns read (all when absent). */
  columns?: readonly (keyof Selectable<Tables[T]> & string)[];
}

/**
 * Page `number` of a list (zero-based, `size` items), oldest or newest first, optionally only
 * the rows created after `from` and at or before `to`: the total from the counter, the date
 * bounds from `positionBounds`, then one range of the position index.
 */
export async function positionPage<T extends keyof Tables, C extends keyof Selectable<Tables[T]> & string>(
  db: Db | Tx,
  listed: ListedRows<T> & { columns: readonly C[] },
  page: { size: number; number: number },
  order: 'asc' | 'desc',
  created?: { from?: string | undefined; to?: string | undefined },
): Promise<{ items: Pick<Selectable<Tables[T]>, C>[]; total: number }>;
export async function positionPage<T extends keyof Tables>(
  db: Db | Tx,
  listed: ListedRows<T>,
  page: { size: number; number: number },
  order: 'asc' | 'desc',
  created?: { from?: string | undefined; to?: string | undefined },
): Promise<{ items: Selectable<Tables[T]>[]; total: number }>;
export async function positionPage<T extends keyof Tables>(
  db: Db | Tx,
  listed: ListedRows<T>,
  page: { size: number; number: number },
  order: 'asc' | 'desc',
  created: { from?: string | undefined; to?: string | undefined } = {},
): Promise<{ items: Selectable<Tables[T]>[]; total: number }> {
  const count = await countOf(db, listed.list, listed.counter);
  const bounds = created.from || created.to ? await positionBounds(db, listed, count, created) : { first: 1, last: count };
  const { lo, hi } = pageRange(bounds, page.size, page.number, order);
  if (lo > hi) return { items: [], total: boundsSize(bounds) };
  const scope = Object.entries(listed.scope);
  const shape = `positionPage ${listed.table} ${scope.map(([column]) => column).join(',')} ${listed.position} ${order} ${listed.columns?.join(',') ?? '*'}`;
  const items = await runCompiled(
    db,
    shape,
    () => {
      // Kysely cannot type a table chosen at run time; the rows are that table's.
      const from = (db as unknown as Kysely<any>).selectFrom(listed.table as string);
      let query = listed.columns ? from.select(listed.columns as readonly string[]) : from.selectAll();
      for (const [column, value] of scope) query = query.where(column, '=', value);
      return query.where(listed.position, '>=', lo).where(listed.position, '<=', hi).orderBy(listed.position, order);
    },
    [...scope.map(([, value]) => value), lo, hi],
  );
  return { items: items as Selectable<Tables[T]>[], total: boundsSize(bounds) };
}

/** What rolls back an insert that a unique index refused, caught by insertWithPositions itself. */
class InsertRefused extends Error {}

/**
 * Inserts a listed row with its positions: takes the counters and runs `insert` with the row
 * as it is to be stored (its positions, and the `created_at` they give). Answers that row,
 * or undefined when `insert` answers false (a unique index kept another row): the counters
 * are then left as they were, as every refused request leaves the database (`last_at`
 * included). All in one transaction (the caller's, or a new one).
 */
export async function insertWithPositions<R extends { created_at: string; updated_at?: string }>(
  db: Db | Tx,
  row: R,
  lists: (Counter & { column: keyof R & string })[],
  insert: (tx: Tx, row: R) => Promise<boolean>,
): Promise<R | undefined> {
  const place = async (tx: Tx) => {
    const taken = await nextPositions(tx, lists, row.created_at);
    const stored: R = { ...row, created_at: taken.at, ...(row.updated_at === row.created_at ? { updated_at: taken.at } : {}) };
    for (const [i, list] of lists.entries()) (stored as Record<string, unknown>)[list.column] = taken.positions[i];
    return { stored, inserted: await insert(tx, stored) };
  };
  if (!db.isTransaction) {
    // The transaction is this insert's own: a refused insert rolls it back whole, counters
    // included, with no savepoint (two statements fewer on every insert, createQuote's and
    // createOrder's among them).
    try {
      return await db.transaction().execute(async (tx) => {
        shareCompiled(db, tx);
        const { stored, inserted } = await place(tx);
        if (!inserted) throw new InsertRefused('insert refused by a unique index');
        return stored;
      });
    } catch (error) {
      if (error instanceof InsertRefused) return undefined;
      throw error;
    }
  }
  // In the caller's transaction, a savepoint undoes the counters' update of a refused insert.
  const tx = db as Tx;
  await runCompiled(tx, 'savepoint', () => ({ compile: () => sql`SAVEPOINT list_positions`.compile(tx) }), []);
  const { stored, inserted } = await place(tx);
  if (!inserted) await sql`ROLLBACK TO SAVEPOINT list_positions`.execute(tx);
  await runCompiled(tx, 'release savepoint', () => ({ compile: () => sql`RELEASE SAVEPOINT list_positions`.compile(tx) }), []);
  return inserted ? stored : undefined;
}
