/**
 * Partners made by `POST /sandbox/partners` (sandbox_partners, migration 200), and the one
 * statement list that deletes a partner with everything it owns.
 *
 * What a partner owns is found through `organizations.top_id` (migration 140): the partner
 * and every organization below it. Every table holding rows of an organization is listed in
 * `deleteEverything`; a table added later with an organization column must be added there,
 * and the test that counts every table's rows before and after a delete (test/features/
 * sandboxPartners/api.test.ts) fails until it is. Not deleted: `auth_assertions`, which are keyed
 * by an issuer string any partner may register and expire on their own within minutes.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db, Engine, Tx } from '../../storage/database.ts';
import type { SandboxPartnersTable } from '../../storage/tables.ts';

export type SandboxPartnerRow = SandboxPartnersTable;

/** Any constant of the sandbox: the advisory lock that serializes the cap's count and insert on PostgreSQL. */
const capLock = 0x5a4d_0200;

export function sandboxPartnersRepository(db: Db | Tx, engine: Engine = 'sqlite') {
  return {
    /**
     * Inside a transaction: takes the lock of the cap (PostgreSQL; SQLite runs one writer at a
     * time) and counts the partners made so far, so two processes cannot both see 49 and both
     * make the 50th.
     */
    async lockAndCount(): Promise<number> {
      if (engine === 'postgres') await sql`SELECT pg_advisory_xact_lock(${capLock})`.execute(db);
      const { n } = await db.selectFrom('sandbox_partners').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
      return Number(n);
    },

    async insert(row: SandboxPartnerRow) {
      await db.insertInto('sandbox_partners').values(row).execute();
    },

    /** Inside a transaction: the row, locked on PostgreSQL, so a delete and the expiry job take turns. */
    findForUpdate(partnerId: string) {
      let query = db.selectFrom('sandbox_partners').selectAll().where('partner_id', '=', partnerId);
      if (engine === 'postgres') query = query.forUpdate();
      return query.executeTakeFirst();
    },

    /** Records a request of one of the partner's keys (authenticate calls it at most once a minute). */
    async touch(partnerId: string, at: string) {
      await db.updateTable('sandbox_partners').set({ last_request_at: at }).where('partner_id', '=', partnerId).where('last_request_at', '<', at).execute();
    },

    /** Up to `limit` partners whose keys made no request since `before`, oldest first. */
    async idleSince(before: string, limit: number): Promise<string[]> {
      const rows = await db.selectFrom('sandbox_partners').select('partner_id').where('last_request_at', '<', before).orderBy('last_request_at').limit(limit).execute();
      return rows.map((row) => row.partner_id);
    },

    /** Inside a transaction: deletes the partner, every organization below it and every row they own. */
    async deleteEverything(partnerId: string): Promise<void> {
      await deleteEverything(db, engine, partnerId);
    },
  };
}

async function deleteEverything(db: Db | Tx, engine: Engine, partnerId: string): Promise<void> {
  // The request log's writer share-locks the partner's row (requestLog/repository.ts): it
  // waits for this delete and then stores nothing, or this waits for its rows and deletes them.
  if (engine === 'postgres') await db.selectFrom('organizations').select('id').where('id', '=', partnerId).forUpdate().execute();
  const orgs = db.selectFrom('organizations').select('id').where('top_id', '=', partnerId);
  const subscriptions = db.selectFrom('webhook_subscriptions').select('id').where('organization_id', 'in', orgs);
  const deliveries = db.selectFrom('webhook_deliveries').select('id').where('subscription_id', 'in', subscriptions);
  const grants = db.selectFrom('auth_grants').select('id').where('partner_id', 'in', orgs);
  const ofOrg = (column: string): Expression<SqlBool> => sql<SqlBool>`${sql.ref(column)} IN (SELECT id FROM organizations WHERE top_id = ${partnerId})`;
  // Each list's counter is scoped by an organization, a subscription, or an organization and
  // a surface (storage/positions.ts `listNames`).
  await db
    .deleteFrom('list_counters')
    .where((eb) =>
      eb.or([
        eb('scope', 'in', orgs),
        eb('scope', 'in', subscriptions),
        eb('scope', 'in', db.selectFrom('organizations').select(sql<string>`id || ':v1'`.as('scope')).where('top_id', '=', partnerId)),
        eb('scope', 'in', db.selectFrom('organizations').select(sql<string>`id || ':v2'`.as('scope')).where('top_id', '=', partnerId)),
      ]),
    )
    .execute();
  // Rate-limit windows are named by the organization read or by the key's row id (features/rateLimits).
  await db
    .deleteFrom('rate_limit_windows')
    .where((eb) =>
      eb.or([
        eb('bucket', 'in', db.selectFrom('organizations').select(sql<string>`'reads:' || id`.as('bucket')).where('top_id', '=', partnerId)),
        eb('bucket', 'in', db.selectFrom('api_keys').select(sql<string>`'key-reads:' || id`.as('bucket')).where('organization_id', 'in', orgs)),
      ]),
    )
    .execute();
  await db.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
  await db.deleteFrom('webhook_deliveries').where('subscription_id', 'in', subscriptions).execute();
  await db.deleteFrom('webhook_subscriptions').where(ofOrg('organization_id')).execute();
  await db.deleteFrom('events').where((eb) => eb.or([ofOrg('partner_id'), ofOrg('organization_id')])).execute();
  await db.deleteFrom('orders').where(ofOrg('organization_id')).execute();
  await db.deleteFrom('quotes').where(ofOrg('organization_id')).execute();
  await db.deleteFrom('payment_accounts').where(ofOrg('organization_id')).execute();
  await db.deleteFrom('wallets').where(ofOrg('organization_id')).execute();
  // v1 orders and swaps reference v1 wallets and bank accounts: they go first.
  for (const table of ['v1_orders', 'v1_swaps', 'v1_onboarding_links', 'v1_bank_accounts', 'v1_wallets'] as const) {
    await db.deleteFrom(table).where((eb) => eb.or([ofOrg('partner_id'), ofOrg('customer_id')])).execute();
  }
  await db.deleteFrom('verifications').where(ofOrg('organization_id')).execute();
  await db.deleteFrom('auth_tokens').where('grant_id', 'in', grants).execute();
  await db.deleteFrom('auth_grants').where((eb) => eb.or([ofOrg('partner_id'), ofOrg('customer_id')])).execute();
  await db.deleteFrom('jwt_issuers').where(ofOrg('organization_id')).execute();
  await db.deleteFrom('api_keys').where(ofOrg('organization_id')).execute();
  await db.deleteFrom('request_log').where('partner_id', '=', partnerId).execute();
  await db.deleteFrom('sandbox_clocks').where('partner_id', '=', partnerId).execute();
  await db.deleteFrom('sandbox_partners').where('partner_id', '=', partnerId).execute();
  // One statement: the parent_id reference is checked when it ends, not row by row.
  await db.deleteFrom('organizations').where('top_id', '=', partnerId).execute();
}
