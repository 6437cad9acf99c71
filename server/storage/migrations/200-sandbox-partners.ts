import type { Kysely } from 'kysely';

/**
 * Partners made by `POST /sandbox/partners` (server/features/sandboxPartners): which
 * organization's key made each, and when one of its keys last made a request, in real time,
 * so the background job deletes those unused for the configured idle time (24 hours by
 * default). Partners made otherwise have no row: they are never counted against the cap nor
 * expired. `last_request_at` is indexed for that job's range scan.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('sandbox_partners')
    .addColumn('partner_id', 'text', (c) => c.primaryKey())
    .addColumn('made_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_request_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_partners_last_request').on('sandbox_partners').columns(['last_request_at']).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('sandbox_partners').execute();
}
