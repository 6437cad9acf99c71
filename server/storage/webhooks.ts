/** Webhook subscriptions, their deliveries and the attempts of each delivery. */
import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db, Tx } from './database.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookSubscriptionsTable } from './tables.ts';

export type SubscriptionRow = Selectable<WebhookSubscriptionsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;
export type Surface = 'v1' | 'v2';

export function webhooksRepository(db: Db | Tx) {
  const repository = {
    /** Inserts unless the organization already has this URL and event type; false then. */
    async insertSubscription(row: SubscriptionRow): Promise<boolean> {
      const result = await db
        .insertInto('webhook_subscriptions')
        .values(row)
        .onConflict((oc) => oc.columns(['organization_id', 'surface', 'event_type', 'url']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    findSubscription(organizationId: string, surface: Surface, id: string) {
      return db
        .selectFrom('webhook_subscriptions')
        .selectAll()
        .where('id', '=', id.toLowerCase())
        .where('organization_id', '=', organizationId)
        .where('surface', '=', surface)
        .executeTakeFirst();
    },

    /** Oldest first; the id breaks ties of one millisecond. */
    async listSubscriptions(organizationId: string, surface: Surface, page: { size: number; number: number }) {
      const base = db.selectFrom('webhook_subscriptions').where('organization_id', '=', organizationId).where('surface', '=', surface);
      const [{ count }] = (await base.select((eb) => eb.fn.countAll<number>().as('count')).execute()) as [{ count: number }];
      const items = await base
        .selectAll()
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(page.size)
        .offset(page.size * page.number)
        .execute();
      return { items, total: Number(count) };
    },

    /** The subscriptions an event goes to: its partner's, of its surface and type. */
    matchingSubscriptions(partnerId: string, surface: Surface, eventType: string) {
      return db
        .selectFrom('webhook_subscriptions')
        .select(['id'])
        .where('organization_id', '=', partnerId)
        .where('surface', '=', surface)
        .where('event_type', '=', eventType)
        .orderBy('created_at', 'asc')
        .execute();
    },

    /** Removes a subscription with its deliveries and their attempts; false when absent. */
    async deleteSubscription(organizationId: string, surface: Surface, id: string): Promise<boolean> {
      const found = await repository.findSubscription(organizationId, surface, id);
      if (!found) return false;
      const deliveries = db.selectFrom('webhook_deliveries').select('id').where('subscription_id', '=', found.id);
      await db.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
      await db.deleteFrom('webhook_deliveries').where('subscription_id', '=', found.id).execute();
      await db.deleteFrom('webhook_subscriptions').where('id', '=', found.id).execute();
      return true;
    },

    /** New pending deliveries of one event, due at `dueAt`. */
    async insertDeliveries(eventId: string, subscriptionIds: string[], dueAt: string): Promise<DeliveryRow[]> {
      const rows: DeliveryRow[] = subscriptionIds.map((subscriptionId) => ({
        id: randomUUID(),
        subscription_id: subscriptionId,
        event_id: eventId,
        status: 'pending',
        attempts: 0,
        next_attempt_at: dueAt,
        created_at: dueAt,
        updated_at: dueAt,
      }));
      if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
      return rows;
    },

    /** A subscription's deliveries, newest first. */
    async listDeliveries(subscriptionId: string, page: { size: number; number: number }) {
      const base = db.selectFrom('webhook_deliveries').where('subscription_id', '=', subscriptionId);
      const [{ count }] = (await base.select((eb) => eb.fn.countAll<number>().as('count')).execute()) as [{ count: number }];
      const items = await base
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.size)
        .offset(page.size * page.number)
        .execute();
      return { items, total: Number(count) };
    },

    /** The attempts of some deliveries, by delivery id, oldest first. */
    async attemptsOf(deliveryIds: string[]): Promise<Map<string, AttemptRow[]>> {
      const byDelivery = new Map<string, AttemptRow[]>(deliveryIds.map((id) => [id, []]));
      if (deliveryIds.length === 0) return byDelivery;
      const rows = await db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('number', 'asc').execute();
      for (const row of rows) byDelivery.get(row.delivery_id)?.push(row);
      return byDelivery;
    },
  };
  return repository;
}
