import type { Kysely } from 'kysely';

/**
 * A subscription's deliveries of one event (listWebhookDeliveries `eventId`), newest first:
 * read from this index alone, however many deliveries the subscription has.
 */
export async function up(db: Kysely<any>) {
  await db.schema.createIndex('webhook_deliveries_subscription_event').on('webhook_deliveries').columns(['subscription_id', 'event_id', 'position']).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('webhook_deliveries_subscription_event').execute();
}
