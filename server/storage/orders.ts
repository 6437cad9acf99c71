/** Orders (v2): one per quote, enforced by a unique constraint on quote_id. */
import type { Selectable } from 'kysely';
import type { Db, Storage, Tx } from './database.ts';
import type { OrdersTable } from './tables.ts';

export type OrderRow = Selectable<OrdersTable>;

export function ordersRepository(db: Db | Tx, engine?: Storage['engine']) {
  return {
    find(organizationId: string, id: string) {
      return db.selectFrom('orders').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
    },

    /** The row, locked until the transaction ends on PostgreSQL (SQLite serializes writers). */
    findForUpdate(organizationId: string, id: string) {
      let query = db.selectFrom('orders').selectAll().where('id', '=', id).where('organization_id', '=', organizationId);
      if (engine === 'postgres') query = query.forUpdate();
      return query.executeTakeFirst();
    },

    findByQuote(quoteId: string) {
      return db.selectFrom('orders').selectAll().where('quote_id', '=', quoteId).executeTakeFirst();
    },

    /**
     * Inserts unless an order for the quote exists; false when one does. ON CONFLICT waits
     * for a racing insert to commit, so the caller can read the winner right after.
     */
    async insert(row: OrderRow): Promise<boolean> {
      const result = await db.insertInto('orders').values(row).onConflict((oc) => oc.column('quote_id').doNothing()).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** Writes the changes only if the status is still `from`; false when it moved meanwhile. */
    async updateFrom(id: string, from: string, changes: Partial<Omit<OrderRow, 'id'>>): Promise<boolean> {
      const result = await db.updateTable('orders').set(changes).where('id', '=', id).where('status', '=', from).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** A page of the orders of these organizations, newest first. */
    async page(organizationIds: { partnerId: string } | { organizationId: string }, page: { size: number; number: number }) {
      let query = db.selectFrom('orders');
      if ('organizationId' in organizationIds) {
        query = query.where('organization_id', '=', organizationIds.organizationId);
      } else {
        const { partnerId } = organizationIds;
        query = query.where((eb) =>
          eb.or([
            eb('organization_id', '=', partnerId),
            eb('organization_id', 'in', eb.selectFrom('organizations').select('id').where('parent_id', '=', partnerId)),
          ]),
        );
      }
      const [items, total] = await Promise.all([
        query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.size).offset(page.size * page.number).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },

    /** Orders in `status` whose `column` time has come. */
    due(status: string, column: 'settle_at' | 'funding_deadline', now: string, limit = 100) {
      return db.selectFrom('orders').select(['id', 'organization_id']).where('status', '=', status).where(column, '<=', now).orderBy(column).limit(limit).execute();
    },
  };
}
