/** Quotes (v2): firm prices until they expire; immutable once written. */
import type { Selectable } from 'kysely';
import type { Db, Tx } from '../../storage/database.ts';
import { insertCompiled, runCompiled } from '../../storage/compiled.ts';
import { insertWithPositions, positionPage } from '../../storage/positions.ts';
import type { QuotesTable } from '../../storage/tables.ts';

export type QuoteRow = Selectable<QuotesTable>;
/** A row before insert: its list position is taken then. */
export type NewQuoteRow = Omit<QuoteRow, 'position'>;

export function quotesRepository(db: Db | Tx) {
  return {
    /** createOrder's read, compiled once (storage/compiled.ts). */
    async find(organizationId: string, id: string) {
      const [row] = await runCompiled(db, 'quotes.find', () => db.selectFrom('quotes').selectAll().where('id', '=', id).where('organization_id', '=', organizationId), [id, organizationId]);
      return row;
    },

    /** Inserts the quote with its place in the organization's list (listQuotes); answers it as stored. */
    async insert(row: NewQuoteRow): Promise<QuoteRow> {
      const lifetimeMs = Date.parse(row.expires_at) - Date.parse(row.created_at);
      const stored = await insertWithPositions(db, { ...row, position: null as number | null }, [{ list: 'quotes', scope: row.organization_id, column: 'position' }], async (tx, r) => {
        // The list may stamp it a moment later (positions.ts keeps created_at in list order): the quote keeps its whole lifetime.
        r.expires_at = new Date(Date.parse(r.created_at) + lifetimeMs).toISOString();
        await insertCompiled(tx, 'quotes.insert', r, (r) => tx.insertInto('quotes').values(r));
        return true;
      });
      return stored!;
    },

    /** A page of an organization's quotes, newest first: a range of positions. */
    page(organizationId: string, page: { size: number; number: number }) {
      return positionPage(db, { list: 'quotes', counter: organizationId, table: 'quotes', scope: { organization_id: organizationId }, position: 'position' }, page, 'desc');
    },
  };
}
