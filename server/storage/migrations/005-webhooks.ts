import type { Kysely } from 'kysely';

/**
 * Webhook subscriptions (v1 and v2 apart), the deliveries the outbox fans out to them, and
 * every attempt of each delivery (server/features/webhooks/).
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('surface', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One subscription per URL and event type (a second is 409 `conflict`: WebhookSubscriptionRequest); also the fan-out lookup.
  await db.schema
    .createIndex('webhook_subscriptions_unique')
    .on('webhook_subscriptions')
    .columns(['organization_id', 'surface', 'event_type', 'url'])
    .unique()
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The worker's claim: pending deliveries by due time.
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_subscription').on('webhook_deliveries').columns(['subscription_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .execute();
  // An attempt number is claimed once: two workers can never both send attempt n.
  await db.schema.createIndex('webhook_attempts_number').on('webhook_attempts').columns(['delivery_id', 'number']).unique().execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_subscriptions').execute();
}
