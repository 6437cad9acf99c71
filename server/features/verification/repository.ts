/** What a KYC or KYB holds beside its status (which stays on the organization row). */
import type { Selectable } from 'kysely';
import type { Db, Tx } from '../../storage/database.ts';
import type { VerificationsTable } from '../../storage/tables.ts';

export type VerificationRow = Selectable<VerificationsTable>;

export function verificationsRepository(db: Db | Tx) {
  return {
    find(organizationId: string, kind: 'kyc' | 'kyb') {
      return db.selectFrom('verifications').selectAll().where('organization_id', '=', organizationId).where('kind', '=', kind).executeTakeFirst();
    },

    async save(row: VerificationRow) {
      const { organization_id, kind, ...rest } = row;
      await db
        .insertInto('verifications')
        .values(row)
        .onConflict((oc) => oc.columns(['organization_id', 'kind']).doUpdateSet(rest))
        .execute();
    },
  };
}
