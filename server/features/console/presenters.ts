/** Stored events and deliveries as the console's reads return them (SandboxEvent, SandboxWebhookDelivery). */
import type { components } from '../../../generated/types/ramp.ts';
import { presentDelivery } from '../webhooks/presenters.ts';
import type { AttemptRow, DeliveryRow } from '../webhooks/deliveriesRepository.ts';
import type { EventRow } from '../webhooks/eventsRepository.ts';
import type { SubscriptionRow } from '../webhooks/subscriptionsRepository.ts';
import { signCanonical } from '../webhooks/signature.ts';

type Schemas = components['schemas'];

export function presentSandboxEvent(row: Pick<EventRow, 'id' | 'surface' | 'type' | 'organization_id' | 'subject_id' | 'payload' | 'occurred_at' | 'position'>): Schemas['SandboxEvent'] {
  return {
    cursor: Number(row.position),
    eventId: row.id,
    surface: row.surface,
    eventType: row.type,
    organizationId: row.organization_id,
    subjectId: row.subject_id ?? row.organization_id,
    occurredAt: row.occurred_at,
    body: JSON.parse(row.payload) as Record<string, unknown>,
  };
}

/** `body` is the stored event: canonical JSON, the very bytes sent, signed here as the worker signs them. */
export function presentSandboxDelivery(row: DeliveryRow, subscription: SubscriptionRow, attempts: AttemptRow[], body: string): Schemas['SandboxWebhookDelivery'] {
  const { eventId, eventType, status, nextAttemptAt, createdAt, updatedAt } = presentDelivery(row, subscription.event_type, attempts);
  return {
    id: row.id,
    subscriptionId: subscription.id,
    surface: subscription.surface,
    eventId,
    eventType,
    status,
    url: subscription.url,
    body,
    signature: signCanonical(body, subscription.secret),
    attempts: attempts.map((a) => ({
      number: a.number,
      startedAt: a.started_at,
      finishedAt: a.finished_at,
      durationMs: a.finished_at === null ? null : Math.max(0, Date.parse(a.finished_at) - Date.parse(a.started_at)),
      statusCode: a.status_code,
      error: a.error,
      responseExcerpt: a.response_excerpt,
    })),
    nextAttemptAt,
    createdAt,
    updatedAt,
  };
}
