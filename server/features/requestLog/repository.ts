/** The request log's table (190-request-log): writes in batches, bounded per partner, and the filtered reads of listSandboxRequests. */
import type { Db, Engine } from '../../storage/database.ts';
import type { RequestLogTable } from '../../storage/tables.ts';

export type RequestLogRow = RequestLogTable;

export interface RequestLogFilter {
  /** `404`, or a class: `4xx`. */
  status?: string | undefined;
  operationId?: string | undefined;
  organizationId?: string | undefined;
  objectId?: string | undefined;
  /** Successful reads left out: GET, and the reads sent as POST named here (rules.ts `postedReads`). */
  withoutReads?: { postedReads: readonly string[] } | undefined;
  /** Older entries are not shown, even before they are deleted. */
  since: string;
}

export function requestLogRepository(db: Db, engine: Engine = 'sqlite') {
  const filtered = (partnerId: string, filter: RequestLogFilter) => {
    let query = db.selectFrom('request_log').where('partner_id', '=', partnerId).where('received_at', '>=', filter.since);
    if (filter.status?.endsWith('xx')) {
      const low = Number(filter.status[0]) * 100;
      query = query.where('status', '>=', low).where('status', '<', low + 100);
    } else if (filter.status !== undefined) query = query.where('status', '=', Number(filter.status));
    if (filter.operationId !== undefined) query = query.where('operation_id', '=', filter.operationId);
    if (filter.organizationId !== undefined) query = query.where('organization_id', '=', filter.organizationId);
    if (filter.objectId !== undefined) query = query.where('object_ids', 'like', `%${filter.objectId}%`);
    // A refusal, or not a read (rules.ts `isRead`, in SQL).
    if (filter.withoutReads) {
      const { postedReads } = filter.withoutReads;
      query = query.where((eb) =>
        eb.or([
          eb('status', '>=', 400),
          eb.and([eb('method', '<>', 'GET'), ...(postedReads.length > 0 ? [eb.or([eb('operation_id', 'is', null), eb('operation_id', 'not in', postedReads)])] : [])]),
        ]),
      );
    }
    return query;
  };
  return {
    /**
     * Stores the entries of partners that still exist in one transaction, then drops what each
     * of them keeps no longer. On PostgreSQL each partner's row is key-share-locked first (ordinary updates of it go on), so a
     * delete of the partner (DELETE /sandbox/partners, whose own answer is logged after it)
     * either waits for these rows and deletes them, or ends first and none of them is stored.
     */
    async insert(rows: RequestLogRow[], bounds: { perPartner: number; before: string }) {
      await db.transaction().execute(async (tx) => {
        let present = tx.selectFrom('organizations').select('id').where('id', 'in', [...new Set(rows.map((row) => row.partner_id))]).orderBy('id');
        if (engine === 'postgres') present = present.forKeyShare();
        const partners = new Set((await present.execute()).map((row) => row.id));
        const kept = rows.filter((row) => partners.has(row.partner_id));
        if (kept.length === 0) return;
        await tx.insertInto('request_log').values(kept).execute();
        for (const partnerId of partners) {
          await tx.deleteFrom('request_log').where('partner_id', '=', partnerId).where('received_at', '<', bounds.before).execute();
          const oldestKept = await tx
            .selectFrom('request_log')
            .select('id')
            .where('partner_id', '=', partnerId)
            .orderBy('id', 'desc')
            .offset(bounds.perPartner - 1)
            .limit(1)
            .executeTakeFirst();
          if (oldestKept) await tx.deleteFrom('request_log').where('partner_id', '=', partnerId).where('id', '<', oldestKept.id).execute();
        }
      });
    },

    /** A page of the partner's entries, newest first, and how many match. */
    async page(partnerId: string, filter: RequestLogFilter, page: { size: number; number: number }): Promise<{ items: RequestLogRow[]; total: number }> {
      const items = await filtered(partnerId, filter).selectAll().orderBy('id', 'desc').limit(page.size).offset(page.size * page.number).execute();
      const { n } = await filtered(partnerId, filter)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return { items, total: Number(n) };
    },
  };
}
