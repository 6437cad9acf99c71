import type { Kysely } from 'kysely';

/**
 * The sandbox request log (listSandboxRequests, server/features/requestLog): one row per API
 * request of a partner's keys, read newest first by its time-ordered `id` within the partner,
 * kept bounded per partner (the newest 1,000, none older than 7 days) by the recorder as it
 * writes. `object_ids` lists the ids the request touched, separated by spaces: a partner has
 * at most a thousand rows, so filtering on one is a scan of those.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('request_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('operation_id', 'text')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('surface', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('sandbox_time', 'text', (c) => c.notNull())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('object_ids', 'text', (c) => c.notNull())
    .addColumn('request_body', 'text')
    .addColumn('response_body', 'text')
    .addColumn('truncated', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('request_log_partner').on('request_log').columns(['partner_id', 'id']).execute();
  await db.schema.createIndex('request_log_received').on('request_log').columns(['partner_id', 'received_at']).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('request_log').execute();
}
