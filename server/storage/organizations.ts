/** Organizations: partners and their direct children (customers). */
import type { Selectable } from 'kysely';
import type { Db, Tx } from './database.ts';
import type { OrganizationsTable } from './tables.ts';

export type OrganizationRow = Selectable<OrganizationsTable>;

export interface NewOrganization {
  id: string;
  parentId: string | null;
  type: 'business' | 'personal';
  displayName: string;
  keySalt: string;
  kybStatus?: string;
  kybApprovedAt?: string | null;
  kycStatus?: string;
  now: string;
}

function toRow(o: NewOrganization): OrganizationRow {
  return {
    id: o.id,
    parent_id: o.parentId,
    type: o.type,
    display_name: o.displayName,
    key_salt: o.keySalt,
    kyb_status: o.kybStatus ?? 'notStarted',
    kyb_approved_at: o.kybApprovedAt ?? null,
    kyc_status: o.kycStatus ?? 'notStarted',
    created_at: o.now,
    updated_at: o.now,
  };
}

export function organizationsRepository(db: Db | Tx) {
  return {
    find(id: string) {
      return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async insert(o: NewOrganization): Promise<OrganizationRow> {
      const row = toRow(o);
      await db.insertInto('organizations').values(row).execute();
      return row;
    },

    /** Inserts unless the id is taken (even by a concurrent insert); undefined when taken. */
    async insertIfAbsent(o: NewOrganization): Promise<OrganizationRow | undefined> {
      const row = toRow(o);
      const result = await db.insertInto('organizations').values(row).onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? row : undefined;
    },

    async rename(id: string, displayName: string, now: string) {
      await db.updateTable('organizations').set({ display_name: displayName, updated_at: now }).where('id', '=', id).execute();
    },

    async update(id: string, changes: Partial<Omit<OrganizationRow, 'id'>>) {
      await db.updateTable('organizations').set(changes).where('id', '=', id).execute();
    },

    /**
     * A page of a partner's children, newest first (v2) or oldest first (v1), optionally
     * created after `from` and at or before `to`: a range of the (parent_id, created_at, id)
     * index either way.
     */
    async childrenPage(parentId: string, page: { size: number; number: number }, created?: { from?: string; to?: string }, order: 'desc' | 'asc' = 'desc') {
      let query = db.selectFrom('organizations').where('parent_id', '=', parentId);
      if (created?.from) query = query.where('created_at', '>', created.from);
      if (created?.to) query = query.where('created_at', '<=', created.to);
      const [items, total] = await Promise.all([
        query.selectAll().orderBy('created_at', order).orderBy('id', order).limit(page.size).offset(page.size * page.number).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },
  };
}
