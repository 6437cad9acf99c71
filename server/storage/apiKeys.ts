/** API keys: only hashes are stored; the raw key leaves the server once, at creation. */
import type { Selectable } from 'kysely';
import type { Db, Tx } from './database.ts';
import type { ApiKeysTable } from './tables.ts';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export function apiKeysRepository(db: Db | Tx) {
  return {
    /** By public id. */
    find(id: string) {
      return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** By the digest of the key's `{key_id}` (domain/apiKeys.ts `keyLookup`). */
    findByLookup(lookup: string) {
      return db.selectFrom('api_keys').selectAll().where('lookup', '=', lookup).executeTakeFirst();
    },

    async insert(row: ApiKeyRow) {
      await db.insertInto('api_keys').values(row).execute();
    },

    async countActive(organizationId: string) {
      const { n } = await db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', organizationId)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    /**
     * A page of the organization's active keys, oldest first (the contract's order). The one
     * list without positions (storage/positions.ts): it shows active keys only, at most 5 per
     * organization, so OFFSET and COUNT walk at most 5 index entries; revoking a key would
     * otherwise have to renumber.
     */
    async activePage(organizationId: string, page: { size: number; number: number }) {
      const query = db.selectFrom('api_keys').where('organization_id', '=', organizationId).where('revoked_at', 'is', null);
      const [items, total] = await Promise.all([
        query.selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc').limit(page.size).offset(page.size * page.number).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },

    /** Revokes at once; true when an active key was revoked. */
    async revoke(organizationId: string, id: string, now: string) {
      const result = await db
        .updateTable('api_keys')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
