/** Partner sign-in storage: JWT issuers, remembered JWT ids, sign-ins (grants) and token hashes. */
import type { Selectable } from 'kysely';
import type { Db, Engine, Tx } from '../../storage/database.ts';
import type { AuthGrantsTable, AuthTokensTable, JwtIssuersTable } from '../../storage/tables.ts';

export type JwtIssuerRow = Selectable<JwtIssuersTable>;
export type AuthGrantRow = Selectable<AuthGrantsTable>;
export type AuthTokenRow = Selectable<AuthTokensTable>;

export function jwtIssuersRepository(db: Db | Tx) {
  return {
    findByOrganization(organizationId: string) {
      return db.selectFrom('jwt_issuers').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();
    },

    findByIssuer(issuer: string) {
      return db.selectFrom('jwt_issuers').selectAll().where('issuer', '=', issuer).executeTakeFirst();
    },

    async upsert(row: JwtIssuerRow) {
      await db
        .insertInto('jwt_issuers')
        .values(row)
        .onConflict((oc) =>
          oc.column('organization_id').doUpdateSet({
            issuer: row.issuer,
            jwks: row.jwks,
            jwks_uri: row.jwks_uri,
            fetched_jwks: row.fetched_jwks,
            fetched_at: row.fetched_at,
            fetch_attempted_at: row.fetch_attempted_at,
            updated_at: row.updated_at,
          }),
        )
        .execute();
    },

    /**
     * Claims the right to fetch the JWKS now: true for exactly one caller per `minGapSeconds`,
     * across processes, because the check and the write are one conditional UPDATE.
     */
    async claimFetch(organizationId: string, jwksUri: string, now: Date, minGapSeconds: number): Promise<boolean> {
      const before = new Date(now.getTime() - minGapSeconds * 1000).toISOString();
      const result = await db
        .updateTable('jwt_issuers')
        .set({ fetch_attempted_at: now.toISOString() })
        .where('organization_id', '=', organizationId)
        .where('jwks_uri', '=', jwksUri)
        .where((eb) => eb.or([eb('fetch_attempted_at', 'is', null), eb('fetch_attempted_at', '<=', before)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async storeFetched(organizationId: string, jwksUri: string, jwks: string, now: string) {
      await db
        .updateTable('jwt_issuers')
        .set({ fetched_jwks: jwks, fetched_at: now })
        .where('organization_id', '=', organizationId)
        .where('jwks_uri', '=', jwksUri)
        .execute();
    },
  };
}

export function authRepository(db: Db | Tx, engine?: Engine) {
  return {
    /** A refresh token by its hash, locked on PostgreSQL until the transaction ends (SQLite serializes writers). */
    findRefreshForUpdate(hash: string) {
      let query = db.selectFrom('auth_tokens').selectAll().where('hash', '=', hash).where('kind', '=', 'refresh');
      if (engine === 'postgres') query = query.forUpdate();
      return query.executeTakeFirst();
    },

    /** Remembers a JWT id until it expires; false when it is already remembered (a replay). */
    async rememberAssertion(issuer: string, value: string, expiresAt: string): Promise<boolean> {
      const result = await db
        .insertInto('auth_assertions')
        .values({ issuer, value, expires_at: expiresAt })
        .onConflict((oc) => oc.columns(['issuer', 'value']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async insertGrant(row: AuthGrantRow) {
      await db.insertInto('auth_grants').values(row).execute();
    },

    findGrant(id: string) {
      return db.selectFrom('auth_grants').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async revokeGrant(id: string, now: string) {
      await db.updateTable('auth_grants').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },

    async insertToken(row: AuthTokenRow) {
      await db.insertInto('auth_tokens').values(row).execute();
    },

    findToken(hash: string, kind: AuthTokenRow['kind']) {
      return db.selectFrom('auth_tokens').selectAll().where('hash', '=', hash).where('kind', '=', kind).executeTakeFirst();
    },

    /** Marks a refresh token used; false when another request consumed it first. */
    async consumeToken(hash: string, now: string): Promise<boolean> {
      const result = await db.updateTable('auth_tokens').set({ used_at: now }).where('hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Forgets what has expired: remembered JWT ids and tokens (a used refresh token past its expiry is refused as unknown). */
    async purgeExpired(now: string) {
      await db.deleteFrom('auth_assertions').where('expires_at', '<', now).execute();
      await db.deleteFrom('auth_tokens').where('expires_at', '<', now).execute();
    },
  };
}
