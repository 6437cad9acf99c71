/** Quotes (v2): firm prices until they expire; immutable once written. */
import type { Selectable } from 'kysely';
import type { Db, Tx } from '../../storage/database.ts';
import type { QuotesTable } from '../../storage/tables.ts';

export type QuoteRow = Selectable<QuotesTable>;

export function quotesRepository(db: Db | Tx) {
  return {
    find(organizationId: string, id: string) {
      return db.selectFrom('quotes').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
    },

    async insert(row: QuoteRow) {
      await db.insertInto('quotes').values(row).execute();
    },
  };
}
