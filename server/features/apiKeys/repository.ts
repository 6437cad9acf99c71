/** API keys: only hashes are stored; the raw key leaves the server once, at creation. */
import type { InferResult, Selectable } from 'kysely';
import type { Db, Tx } from '../../storage/database.ts';
import type { ApiKeysTable } from '../../storage/tables.ts';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export function apiKeysRepository(db: Db | Tx) {
  return {
    /** The key with this lookup hash, with its organization's row (authentication, on every request). */
    findWithOrganization(lookup: string) {
      return findWithOrganization(db, lookup);
    },

    /** Makes a key active again with this hash (the configured seed key at start). */
    async restore(id: string, hash: string) {
      await db.updateTable('api_keys').set({ revoked_at: null, hash }).where('id', '=', id).execute();
    },

    /** Records when the key was last used. */
    async touch(id: string, at: string) {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },

    /** By public id. */
    find(id: string) {
      return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** By the digest of the key's `{key_id}` (./rules.ts `keyLookup`). */
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

/**
 * The key, its organization and its partner's sandbox clock (features/clock) in one indexed
 * query, by the key's lookup hash (its one parameter).
 */
const keyQuery = (db: Db | Tx, lookup: string) =>
  db
    .selectFrom('api_keys')
    .innerJoin('organizations', 'organizations.id', 'api_keys.organization_id')
    .leftJoin('sandbox_clocks', 'sandbox_clocks.partner_id', 'organizations.top_id')
    .leftJoin('sandbox_partners', 'sandbox_partners.partner_id', 'organizations.top_id')
    .where('api_keys.lookup', '=', lookup)
    .selectAll('organizations')
    .select(['api_keys.id as key_id', 'api_keys.hash as key_hash', 'api_keys.revoked_at as key_revoked_at', 'api_keys.last_used_at as key_last_used_at'])
    .select(['sandbox_clocks.frozen_at as clock_frozen_at', 'sandbox_clocks.offset_ms as clock_offset_ms'])
    .select('sandbox_partners.last_request_at as made_last_request_at');

type KeyQuery = ReturnType<typeof keyQuery>;
type CompiledKeyQuery = ReturnType<KeyQuery['compile']>;

/**
 * Every authenticated request runs the key query, and building and compiling it cost more
 * than running it: it is compiled once per database (each engine has its own SQL) and run
 * with the request's parameter. A cache of derived SQL text, not state.
 */
const compiledKeyQueries = new WeakMap<Db | Tx, CompiledKeyQuery>();

/** The key with this lookup hash, its organization's row, its partner's clock and, for a made partner, its last request, in one indexed query. */
async function findWithOrganization(db: Db | Tx, lookup: string) {
  let compiled = compiledKeyQueries.get(db);
  if (!compiled) compiledKeyQueries.set(db, (compiled = keyQuery(db, '').compile()));
  const { rows } = await db.executeQuery<InferResult<KeyQuery>[number]>({ ...compiled, parameters: [lookup] });
  return rows[0];
}
