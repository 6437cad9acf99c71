import { sql, type Kysely } from 'kysely';

/**
 * A re-send of an event (resendWebhookEvent) makes no second delivery to a subscription that
 * still has one pending: it looks up the event's pending deliveries. The index holds pending
 * deliveries only, so it stays as small as the backlog however many deliveries are kept.
 */
export async function up(db: Kysely<any>) {
  await db.schema.createIndex('webhook_deliveries_pending_event').on('webhook_deliveries').columns(['event_id']).where(sql.ref('status'), '=', sql.lit('pending')).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('webhook_deliveries_pending_event').execute();
}
