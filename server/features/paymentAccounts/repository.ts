/** Payment accounts (v2): bank accounts by CLABE, one holder per CLABE. */
import type { Selectable } from 'kysely';
import { followsClock, type DueScope } from '../../storage/clockScope.ts';
import type { Db, Storage, Tx } from '../../storage/database.ts';
import { insertWithPositions, positionPage } from '../../storage/positions.ts';
import type { PaymentAccountsTable } from '../../storage/tables.ts';

export type PaymentAccountRow = Selectable<PaymentAccountsTable>;
/** A row before insert: its list position is taken then. */
export type NewPaymentAccountRow = Omit<PaymentAccountRow, 'position'>;

export function paymentAccountsRepository(db: Db | Tx, engine?: Storage['engine']) {
  return {
    find(organizationId: string, id: string) {
      return db.selectFrom('payment_accounts').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
    },

    /** The row, locked until the transaction ends on PostgreSQL (SQLite serializes writers). */
    findForUpdate(organizationId: string, id: string) {
      let query = db.selectFrom('payment_accounts').selectAll().where('id', '=', id).where('organization_id', '=', organizationId);
      if (engine === 'postgres') query = query.forUpdate();
      return query.executeTakeFirst();
    },

    findByClabe(clabe: string) {
      return db.selectFrom('payment_accounts').selectAll().where('clabe', '=', clabe).executeTakeFirst();
    },

    /** Inserts unless the CLABE is already held, and answers the row as stored; undefined when it was (a racing registration won). */
    async insert(row: NewPaymentAccountRow): Promise<PaymentAccountRow | undefined> {
      return insertWithPositions(db, { ...row, position: null }, [{ list: 'payment_accounts', scope: row.organization_id, column: 'position' }], async (tx, r) => {
        const result = await tx.insertInto('payment_accounts').values(r).onConflict((oc) => oc.column('clabe').doNothing()).executeTakeFirst();
        return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
      });
    },

    async update(id: string, changes: Partial<Omit<PaymentAccountRow, 'id'>>) {
      await db.updateTable('payment_accounts').set(changes).where('id', '=', id).execute();
    },

    /** A page of an organization's accounts, oldest first: a range of positions. */
    async page(organizationId: string, page: { size: number; number: number }) {
      return positionPage(db, { list: 'payment_accounts', counter: organizationId, table: 'payment_accounts', scope: { organization_id: organizationId }, position: 'position' }, page, 'asc');
    },

    /** Accounts whose rail verification is due by `now` on the clock of `scope` (features/clock), earliest first. */
    dueForVerification(now: string, limit = 100, scope: DueScope = 'onRealTime') {
      return db
        .selectFrom('payment_accounts')
        .select(['id', 'organization_id', 'verify_at'])
        .where('verify_at', '<=', now)
        .where(followsClock('payment_accounts.organization_id', scope))
        .orderBy('verify_at')
        .limit(limit)
        .execute();
    },
  };
}
