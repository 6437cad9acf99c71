/** Subscriptions and deliveries exactly as the webhook operations of each surface return them. */
import type { components } from '../../../generated/types/ramp.ts';
import type { AttemptRow, DeliveryRow } from './deliveriesRepository.ts';
import type { SubscriptionRow } from './subscriptionsRepository.ts';

type Schemas = components['schemas'];

/** A v2 subscription (`getWebhookSubscription`), without its secret. */
export function presentSubscription(row: SubscriptionRow): Schemas['WebhookSubscription'] {
  return { id: row.id, eventType: row.event_type as Schemas['WebhookEventType'], url: row.url, createdAt: row.created_at, updatedAt: row.updated_at };
}

/** A v1 subscription (`v1GetWebhook`), without its secret. */
export function presentV1Subscription(row: SubscriptionRow): Schemas['V1WebhookSubscription'] {
  return { id: row.id, eventType: row.event_type as Schemas['V1WebhookEventType'], url: row.url, createdAt: row.created_at, updatedAt: row.updated_at };
}

export function presentDelivery(row: DeliveryRow, eventType: string, attempts: AttemptRow[]): Schemas['WebhookDelivery'] {
  return {
    id: row.id,
    subscriptionId: row.subscription_id,
    eventId: row.event_id,
    eventType: eventType as Schemas['WebhookEventType'],
    status: row.status,
    attempts: attempts.map((a) => ({ number: a.number, startedAt: a.started_at, finishedAt: a.finished_at, statusCode: a.status_code, error: a.error })),
    // While an attempt is under way the column holds its lease, not a due time.
    nextAttemptAt: row.status === 'pending' && !attempts.some((a) => a.finished_at === null && a.error === null) ? row.next_attempt_at : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
