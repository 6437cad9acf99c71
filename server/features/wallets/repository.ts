/** Wallets (v2): one per organization, chain and address. */
import type { Selectable } from 'kysely';
import type { Db, Tx } from '../../storage/database.ts';
import { runCompiled } from '../../storage/compiled.ts';
import { insertWithPositions, positionPage } from '../../storage/positions.ts';
import type { WalletsTable } from '../../storage/tables.ts';

export type WalletRow = Selectable<WalletsTable>;
/** A row before insert: its list position is taken then. */
export type NewWalletRow = Omit<WalletRow, 'position'>;

export function walletsRepository(db: Db | Tx) {
  return {
    /** Inserts unless the organization already holds the address on the chain, and answers the row as stored; undefined then. */
    async insert(row: NewWalletRow): Promise<WalletRow | undefined> {
      return insertWithPositions(db, { ...row, position: null }, [{ list: 'wallets', scope: row.organization_id, column: 'position' }], async (tx, r) => {
        const result = await tx
          .insertInto('wallets')
          .values(r)
          .onConflict((oc) => oc.columns(['organization_id', 'blockchain', 'address']).doNothing())
          .executeTakeFirst();
        return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
      });
    },

    /** The organization's wallet with this address, on whichever chain (addresses do not collide across notations). */
    async findByAddress(organizationId: string, address: string) {
      const build = () => db.selectFrom('wallets').selectAll().where('organization_id', '=', organizationId).where('address', '=', address).orderBy('created_at').limit(1);
      const [row] = await runCompiled(db, 'wallets.findByAddress', build, [organizationId, address, 1]);
      return row;
    },

    /** A page of an organization's wallets, oldest first: a range of positions. */
    async page(organizationId: string, page: { size: number; number: number }) {
      return positionPage(db, { list: 'wallets', counter: organizationId, table: 'wallets', scope: { organization_id: organizationId }, position: 'position' }, page, 'asc');
    },
  };
}
