/** Organizations: partners and their direct children (customers). */
import type { Selectable } from 'kysely';
import type { Db, Engine, Tx } from '../../storage/database.ts';
import { runCompiled } from '../../storage/compiled.ts';
import { insertWithPositions, positionPage } from '../../storage/positions.ts';
import type { OrganizationsTable } from '../../storage/tables.ts';

export type OrganizationRow = Selectable<OrganizationsTable>;

/**
 * An organization's partner: its parent, or itself at the top. Webhook subscriptions and
 * GET /orders belong to the partner.
 */
export const partnerOf = (organization: Pick<OrganizationRow, 'id' | 'parent_id'>) => organization.parent_id ?? organization.id;

/**
 * The partner at the top of an organization's parent chain, whose sandbox clock it follows
 * (server/features/clock). Rows written before migration 140 by other means fall back on
 * the parent, the top for every customer a partner's key can create.
 */
export const topOf = (organization: Pick<OrganizationRow, 'id' | 'parent_id' | 'top_id'>) => organization.top_id ?? organization.parent_id ?? organization.id;

export interface NewOrganization {
  id: string;
  parentId: string | null;
  type: OrganizationRow['type'];
  displayName: string;
  keySalt: string;
  kybStatus?: OrganizationRow['kyb_status'];
  kybApprovedAt?: string | null;
  kycStatus?: OrganizationRow['kyc_status'];
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
    child_position: null,
    top_id: o.parentId === null ? o.id : null,
  };
}

export function organizationsRepository(db: Db | Tx, engine?: Engine) {
  return {
    /** Reads the row and, on PostgreSQL, locks it until the transaction ends (SQLite serializes writers). */
    findForUpdate(id: string) {
      let query = db.selectFrom('organizations').selectAll().where('id', '=', id);
      if (engine === 'postgres') query = query.forUpdate();
      return query.executeTakeFirst();
    },
    /** Whether any organization exists (an empty database gets the sandbox partner). */
    async any(): Promise<boolean> {
      return (await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst()) !== undefined;
    },

    /** Read by every request that acts for a customer (scope.ts `actFor`): compiled once (storage/compiled.ts). */
    async find(id: string) {
      const [row] = await runCompiled(db, 'organizations.find', () => db.selectFrom('organizations').selectAll().where('id', '=', id), [id]);
      return row;
    },

    async insert(o: NewOrganization): Promise<OrganizationRow> {
      const stored = await insertChild(db, toRow(o), async (tx, r) => {
        await tx.insertInto('organizations').values(r).execute();
        return true;
      });
      return stored!;
    },

    /** Inserts unless the id is taken (even by a concurrent insert); undefined when taken. */
    async insertIfAbsent(o: NewOrganization): Promise<OrganizationRow | undefined> {
      return insertChild(db, toRow(o), async (tx, r) => {
        const result = await tx.insertInto('organizations').values(r).onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst();
        return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
      });
    },

    async rename(id: string, displayName: string, now: string) {
      await db.updateTable('organizations').set({ display_name: displayName, updated_at: now }).where('id', '=', id).execute();
    },

    async update(id: string, changes: Partial<Omit<OrganizationRow, 'id'>>) {
      await db.updateTable('organizations').set(changes).where('id', '=', id).execute();
    },

    /**
     * A page of a partner's children, newest first (v2) or oldest first (v1), optionally
     * created after `from` and at or before `to`: a range of child positions, its bounds
     * found on the (parent_id, created_at, child_position) index.
     */
    async childrenPage(parentId: string, page: { size: number; number: number }, created?: { from?: string; to?: string }, order: 'desc' | 'asc' = 'desc') {
      const listed = { list: 'organizations.children', counter: parentId, table: 'organizations', scope: { parent_id: parentId }, position: 'child_position' } as const;
      return positionPage(db, listed, page, order, created);
    },
  };
}

/**
 * A child takes the next position among its parent's children; a top-level organization is
 * in no list. Answers the row as stored, or undefined when `insert` refused it.
 */
async function insertChild(db: Db | Tx, row: OrganizationRow, insert: (tx: Tx, row: OrganizationRow) => Promise<boolean>): Promise<OrganizationRow | undefined> {
  if (row.parent_id === null) return (await insert(db as Tx, row)) ? row : undefined;
  // The child follows its parent's partner's sandbox clock (parents never change).
  const parent = await db.selectFrom('organizations').select(['id', 'parent_id', 'top_id']).where('id', '=', row.parent_id).executeTakeFirst();
  const withTop: OrganizationRow = { ...row, top_id: parent ? topOf(parent) : row.parent_id };
  return insertWithPositions(db, withTop, [{ list: 'organizations.children', scope: row.parent_id, column: 'child_position' }], insert);
}
