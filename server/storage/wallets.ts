/** Wallets (v2): one per organization, chain and address. */
import type { Selectable } from 'kysely';
import type { Db, Tx } from './database.ts';
import type { WalletsTable } from './tables.ts';

export type WalletRow = Selectable<WalletsTable>;

export function walletsRepository(db: Db | Tx) {
  return {
    /** Inserts unless the organization already holds the address on the chain; false then. */
    async insert(row: WalletRow): Promise<boolean> {
      const result = await db
        .insertInto('wallets')
        .values(row)
        .onConflict((oc) => oc.columns(['organization_id', 'blockchain', 'address']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** The organization's wallet with this address, on whichever chain (addresses do not collide across notations). */
    findByAddress(organizationId: string, address: string) {
      return db.selectFrom('wallets').selectAll().where('organization_id', '=', organizationId).where('address', '=', address).orderBy('created_at').executeTakeFirst();
    },

    /** A page of an organization's wallets, oldest first. */
    async page(organizationId: string, page: { size: number; number: number }) {
      const query = db.selectFrom('wallets').where('organization_id', '=', organizationId);
      const [items, total] = await Promise.all([
        query.selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc').limit(page.size).offset(page.size * page.number).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },
  };
}
