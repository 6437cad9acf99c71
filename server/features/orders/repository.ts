/** Orders (v2): one per quote, enforced by a unique constraint on quote_id. */
import type { Selectable } from 'kysely';
import { followsClock, type DueScope } from '../../storage/clockScope.ts';
import type { Db, Storage, Tx } from '../../storage/database.ts';
import { insertCompiled, runCompiled } from '../../storage/compiled.ts';
import { countOf, insertWithPositions, pageRange, positionPage, type Counter } from '../../storage/positions.ts';
import { partnerOf, type OrganizationRow } from '../organizations/repository.ts';
import type { OrdersTable } from '../../storage/tables.ts';

export type OrderRow = Selectable<OrdersTable>;

/**
 * The columns the contract's Order shows (presenters.ts): getOrder and GET /orders read only
 * these. better-sqlite3 makes a JS value of every column read, a fifth of a list request's
 * CPU; the list positions, timers and claim are not shown.
 */
export const orderViewColumns = [
  'id', 'status', 'organization_id', 'quote_id', 'type', 'source_asset', 'target_asset', 'source_amount', 'target_amount', 'payment_account_id',
  'wallet_address', 'funding_instructions', 'failure_code', 'failure_message', 'authorization_id', 'authorization_message', 'authorization_expires_at',
  'created_at', 'updated_at',
] as const satisfies readonly (keyof OrderRow)[];
export type OrderView = Pick<OrderRow, (typeof orderViewColumns)[number]>;
/** An order's stored body and its tag, as presenters.ts `orderBody` makes them. */
export interface OrderBody {
  body: string;
  body_tag: string;
}
type Positions = 'partner_id' | 'partner_position' | 'cover_position' | 'organization_position';
/** A row before insert: its partner, list positions and stored body are found then. */
export type NewOrderRow = Omit<OrderRow, Positions | keyof OrderBody>;
/**
 * What GET /orders reads of each order: its stored body (presenters.ts `orderBody`) with the
 * tag it was made with, and its id to present it from its columns when that tag is not current.
 */
export type ListedOrder = Pick<OrderRow, 'id' | 'body' | 'body_tag'>;
const listedColumns = ['id', 'body', 'body_tag'] as const satisfies readonly (keyof OrderRow)[];

/**
 * Whose GET /orders lists these: all the orders of an organization and of its direct
 * children (`partnerId`, with that organization's own parent), or one organization's.
 */
export type OrdersScope = { partnerId: string; parentId: string | null } | { organizationId: string };

/**
 * Inserts unless an order for the quote exists, and answers the row as stored; undefined
 * when one does. ON CONFLICT waits for a racing insert to commit, so the caller can read
 * the winner right after. The
 * order takes its positions in the lists of its partner (the organization itself at the
 * top, else its parent), of its own organization when that has a parent, and of
 * GET /orders?organizationId; counters of ancestors first (storage/positions.ts). Its
 * stored body is made by `bodyOf` from the row as stored (its `created_at` is known only
 * once its positions are taken).
 */
async function insertOrder(db: Db | Tx, row: NewOrderRow, owner: Pick<OrganizationRow, 'id' | 'parent_id'>, bodyOf: (row: OrderRow) => OrderBody): Promise<OrderRow | undefined> {
  // The owner comes from the caller, who has read it (an organization's parent never
  // changes): the transaction's first statement is then the counter's write, which
  // SQLite never has to upgrade a read to.
  if (owner.id !== row.organization_id) throw new Error(`order ${row.id} belongs to ${row.organization_id}, not ${owner.id}`);
  const partnerId = partnerOf(owner);
  const lists: (Counter & { column: Positions })[] = [{ list: 'orders.covers', scope: partnerId, column: 'partner_position' }];
  if (owner.parent_id !== null) lists.push({ list: 'orders.covers', scope: row.organization_id, column: 'cover_position' });
  lists.push({ list: 'orders.organization', scope: row.organization_id, column: 'organization_position' });
  const unplaced: OrderRow = { ...row, partner_id: partnerId, partner_position: null, cover_position: null, organization_position: null, body: null, body_tag: null };
  return insertWithPositions(db, unplaced, lists, async (tx, r) => {
    // `r` is the row insertWithPositions answers: it answers the body too.
    Object.assign(r, bodyOf(r));
    const inserted = await insertCompiled(tx, 'orders.insert', r, (r) => tx.insertInto('orders').values(r).onConflict((oc) => oc.column('quote_id').doNothing()));
    return inserted > 0;
  });
}

/**
 * A page of the orders of these organizations, newest first: a range of positions. An
 * organization with a parent finds its own orders by `cover_position` and its children's
 * by `partner_position`: two index ranges, one numbering.
 */
async function ordersPage(db: Db | Tx, scope: OrdersScope, page: { size: number; number: number }): Promise<{ items: ListedOrder[]; total: number }> {
  if ('organizationId' in scope) {
    const listed = { list: 'orders.organization', counter: scope.organizationId, table: 'orders', scope: { organization_id: scope.organizationId }, position: 'organization_position', columns: listedColumns } as const;
    return positionPage(db, listed, page, 'desc');
  }
  const { partnerId } = scope;
  if (scope.parentId === null) {
    const listed = { list: 'orders.covers', counter: partnerId, table: 'orders', scope: { partner_id: partnerId }, position: 'partner_position', columns: listedColumns } as const;
    return positionPage(db, listed, page, 'desc');
  }
  // A child organization's list covers two position columns drawn from one counter: the
  // orders of its children (partner_position) and its own (cover_position).
  const total = await countOf(db, 'orders.covers', partnerId);
  const { lo, hi } = pageRange({ first: 1, last: total }, page.size, page.number, 'desc');
  if (lo > hi) return { items: [], total };
  const query = db.selectFrom('orders').select([...listedColumns, 'partner_id', 'partner_position', 'cover_position']);
  const items = await query
    .where((eb) =>
      eb.or([
        eb.and([eb('partner_id', '=', partnerId), eb('partner_position', '>=', lo), eb('partner_position', '<=', hi)]),
        eb.and([eb('organization_id', '=', partnerId), eb('cover_position', '>=', lo), eb('cover_position', '<=', hi)]),
      ]),
    )
    .execute();
  const position = (o: (typeof items)[number]) => (o.partner_id === partnerId ? o.partner_position! : o.cover_position!);
  return { items: items.sort((a, b) => position(b) - position(a)).map(({ id, body, body_tag }) => ({ id, body, body_tag })), total };
}

export function ordersRepository(db: Db | Tx, engine?: Storage['engine']) {
  return {
    /** getOrder's read, compiled once (storage/compiled.ts). */
    async find(organizationId: string, id: string) {
      const [row] = await runCompiled(db, 'orders.find', () => db.selectFrom('orders').select(orderViewColumns).where('id', '=', id).where('organization_id', '=', organizationId), [id, organizationId]);
      return row;
    },

    /** getOrder's read of the order's stored body, compiled once (storage/compiled.ts). */
    async findBody(organizationId: string, id: string): Promise<ListedOrder | undefined> {
      const [row] = await runCompiled(db, 'orders.findBody', () => db.selectFrom('orders').select(listedColumns).where('id', '=', id).where('organization_id', '=', organizationId), [id, organizationId]);
      return row;
    },

    /** The row, locked until the transaction ends on PostgreSQL (SQLite serializes writers). */
    findForUpdate(organizationId: string, id: string) {
      let query = db.selectFrom('orders').selectAll().where('id', '=', id).where('organization_id', '=', organizationId);
      if (engine === 'postgres') query = query.forUpdate();
      return query.executeTakeFirst();
    },

    /** createOrder's retry check, compiled once (storage/compiled.ts). */
    async findByQuote(quoteId: string) {
      const [row] = await runCompiled(db, 'orders.findByQuote', () => db.selectFrom('orders').selectAll().where('quote_id', '=', quoteId), [quoteId]);
      return row;
    },

    insert: (row: NewOrderRow, owner: Pick<OrganizationRow, 'id' | 'parent_id'>, bodyOf: (row: OrderRow) => OrderBody) => insertOrder(db, row, owner, bodyOf),

    /**
     * Writes the changes only if the status is still `from`; false when it moved meanwhile. The
     * changes carry the order's body as changed (presenters.ts `orderBody`).
     */
    async updateFrom(id: string, from: OrderRow['status'], changes: Partial<Omit<OrderRow, 'id'>> & OrderBody): Promise<boolean> {
      const result = await db.updateTable('orders').set(changes).where('id', '=', id).where('status', '=', from).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    page: (scope: OrdersScope, page: { size: number; number: number }) => ordersPage(db, scope, page),

    /** The shown columns of these orders (of a page just read), to present those whose stored body is not current; in any order. */
    views(ids: readonly string[]): Promise<OrderView[]> {
      return db.selectFrom('orders').select(orderViewColumns).where('id', 'in', ids).execute();
    },

    /** Orders whose timer is due by `now` on the clock of `scope` (features/clock), earliest first. */
    due(status: OrderRow['status'], column: 'settle_at' | 'funding_deadline', now: string, limit = 100, scope: DueScope = 'onRealTime') {
      return db
        .selectFrom('orders')
        .select(['id', 'organization_id', `${column} as due_at`])
        .where('status', '=', status)
        .where(column, '<=', now)
        .where(followsClock('orders.organization_id', scope))
        .orderBy(column)
        .limit(limit)
        .execute();
    },
  };
}
