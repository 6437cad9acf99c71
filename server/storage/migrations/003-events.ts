import type { Kysely } from 'kysely';

/** The outbox of webhook events (server/features/webhooks/outbox.ts). */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('surface', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_partner').on('events').columns(['partner_id', 'occurred_at']).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('events').execute();
}
