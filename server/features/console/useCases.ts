/**
 * The sandbox's reads behind the console (openapi/paths/v2/sandbox_events.yaml and
 * sandbox_webhook_subscription_{id}_deliveries.yaml): the event feed and timelines from the
 * outbox, and deliveries with their bodies, signatures and answers. The queries are the
 * webhooks repositories', which own the outbox's tables.
 *
 * The feed never skips an event that commits late: positions are handed out by the recording
 * transaction, which holds its partner's `events` counter until commit
 * (server/storage/positions.ts), so `position > after` is a safe cursor.
 */
import type { components } from '../../../generated/types/ramp.ts';
import { Problem } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import { partnerOf, type OrganizationRow } from '../organizations/repository.ts';
import { deliveriesRepository } from '../webhooks/deliveriesRepository.ts';
import { eventsRepository } from '../webhooks/eventsRepository.ts';
import { subscriptionsRepository } from '../webhooks/subscriptionsRepository.ts';
import { presentSandboxDelivery, presentSandboxEvent } from './presenters.ts';

type Schemas = components['schemas'];

/** The events the caller may see after `after`, oldest first: its partner's, narrowed to its own organization when it is a customer. */
export async function readEvents(services: Pick<Services, 'storage'>, caller: Pick<OrganizationRow, 'id' | 'parent_id'>, options: { after: number; subjectId?: string | undefined; limit: number }): Promise<Schemas['SandboxEventPage']> {
  const rows = await eventsRepository(services.storage.db).eventsAfter(partnerOf(caller), {
    after: options.after,
    limit: options.limit,
    organizationId: caller.parent_id !== null ? caller.id : undefined,
    subjectId: options.subjectId?.toLowerCase(),
  });
  const items = rows.map(presentSandboxEvent);
  return { items, nextCursor: items.at(-1)?.cursor ?? options.after };
}

/** One subscription's deliveries (v1 or v2), newest first, with the bytes and signature each attempt sent. */
export async function readDeliveries(services: Pick<Services, 'storage'>, organizationId: string, subscriptionId: string, page: { size: number; number: number }, eventId?: string) {
  const { db } = services.storage;
  const subscriptions = subscriptionsRepository(db);
  const deliveries = deliveriesRepository(db);
  const subscription = (await subscriptions.findSubscription(organizationId, 'v2', subscriptionId)) ?? (await subscriptions.findSubscription(organizationId, 'v1', subscriptionId));
  if (!subscription) throw new Problem('not-found', `Webhook subscription ${subscriptionId} was not found.`);
  const { items, total } = await deliveries.listDeliveries(subscription.id, page, eventId?.toLowerCase());
  const attempts = await deliveries.attemptsOf(items.map((d) => d.id));
  const payloads = await eventsRepository(db).eventPayloads([...new Set(items.map((d) => d.event_id))]);
  return { items: items.map((row) => presentSandboxDelivery(row, subscription, attempts.get(row.id) ?? [], payloads.get(row.event_id) ?? '')), total };
}
