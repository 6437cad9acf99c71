/** Payment accounts (v2): bank accounts by CLABE, one holder per CLABE. */
import type { Selectable } from 'kysely';
import type { Db, Storage, Tx } from './database.ts';
import type { PaymentAccountsTable } from './tables.ts';

export type PaymentAccountRow = Selectable<PaymentAccountsTable>;

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

    /** Inserts unless the CLABE is already held; false when it was (a racing registration won). */
    async insert(row: PaymentAccountRow): Promise<boolean> {
      const result = await db.insertInto('payment_accounts').values(row).onConflict((oc) => oc.column('clabe').doNothing()).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async update(id: string, changes: Partial<Omit<PaymentAccountRow, 'id'>>) {
      await db.updateTable('payment_accounts').set(changes).where('id', '=', id).execute();
    },

    /** A page of an organization's accounts, oldest first. */
    async page(organizationId: string, page: { size: number; number: number }) {
      const query = db.selectFrom('payment_accounts').where('organization_id', '=', organizationId);
      const [items, total] = await Promise.all([
        query.selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc').limit(page.size).offset(page.size * page.number).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },

    /** Accounts whose rail verification is due. */
    dueForVerification(now: string, limit = 100) {
      return db.selectFrom('payment_accounts').select(['id', 'organization_id']).where('verify_at', '<=', now).orderBy('verify_at').limit(limit).execute();
    },
  };
}
