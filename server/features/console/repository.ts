/**
 * The sandbox's reads behind the console (openapi/paths/v2/sandbox_events.yaml and
 * sandbox_webhook_subscription_{id}_deliveries.yaml): the event feed and timelines from the
 * outbox, and deliveries with their bodies, signatures and answers.
 *
 * The feed is a range of the `(partner_id, position)` index: positions are handed out by the
 * recording transaction, which holds its partner's `events` counter until commit
 * (server/storage/positions.ts), so `position > after` never skips an event that commits
 * later. A timeline adds `subject_id` to the same index's prefix.
 */
import type { components } from '../../../generated/types/ramp.ts';
import { Problem } from '../../problems.ts';
import type { Db } from '../../storage/database.ts';
import { partnerOf, type OrganizationRow } from '../../storage/organizations.ts';
import { webhooksRepository } from '../../storage/webhooks.ts';
import { presentDelivery } from '../../webhooks/subscriptions.ts';
import { signCanonical } from '../../webhooks/signature.ts';

type Schemas = components['schemas'];

/** The events the caller may see after `after`, oldest first: its partner's, narrowed to its own organization when it is a customer. */
export async function readEvents(db: Db, caller: Pick<OrganizationRow, 'id' | 'parent_id'>, options: { after: number; subjectId?: string | undefined; limit: number }): Promise<Schemas['SandboxEventPage']> {
  let query = db
    .selectFrom('events')
    .select(['id', 'surface', 'type', 'organization_id', 'subject_id', 'payload', 'occurred_at', 'position'])
    .where('partner_id', '=', partnerOf(caller))
    .where('position', '>', options.after)
    .orderBy('position', 'asc')
    .limit(options.limit);
  if (caller.parent_id !== null) query = query.where('organization_id', '=', caller.id);
  if (options.subjectId !== undefined) query = query.where('subject_id', '=', options.subjectId.toLowerCase());
  const rows = await query.execute();
  const items = rows.map((row) => ({
    cursor: Number(row.position),
    eventId: row.id,
    surface: row.surface,
    eventType: row.type,
    organizationId: row.organization_id,
    subjectId: row.subject_id ?? row.organization_id,
    occurredAt: row.occurred_at,
    body: JSON.parse(row.payload) as Record<string, unknown>,
  }));
  return { items, nextCursor: items.at(-1)?.cursor ?? options.after };
}

/** One subscription's deliveries (v1 or v2), newest first, with the bytes and signature each attempt sent. */
export async function readDeliveries(db: Db, organizationId: string, subscriptionId: string, page: { size: number; number: number }) {
  const repository = webhooksRepository(db);
  const subscription = (await repository.findSubscription(organizationId, 'v2', subscriptionId)) ?? (await repository.findSubscription(organizationId, 'v1', subscriptionId));
  if (!subscription) throw new Problem('not-found', `Webhook subscription ${subscriptionId} was not found.`);
  const { items, total } = await repository.listDeliveries(subscription.id, page);
  const attempts = await repository.attemptsOf(items.map((d) => d.id));
  const eventIds = [...new Set(items.map((d) => d.event_id))];
  const payloads = new Map(
    eventIds.length === 0 ? [] : (await db.selectFrom('events').select(['id', 'payload']).where('id', 'in', eventIds).execute()).map((e) => [e.id, e.payload]),
  );
  const deliveries: Schemas['SandboxWebhookDelivery'][] = items.map((row) => {
    const rows = attempts.get(row.id) ?? [];
    const { eventId, eventType, status, nextAttemptAt, createdAt, updatedAt } = presentDelivery(row, subscription.event_type, rows);
    // The stored event is canonical JSON: the very bytes sent, signed as the worker signs them.
    const body = payloads.get(row.event_id) ?? '';
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
      attempts: rows.map((a) => ({
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
  });
  return { items: deliveries, total };
}
