/**
 * Subscriptions (createWebhookSubscription, v1CreateWebhook) and what partners see of deliveries.
 * v1 and v2 subscriptions live apart: each surface lists, reads and deletes its own only,
 * and each receives only its own surface's events.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/types/ramp.ts';
import { publicOnlyRule, urlProblem } from '../../shared/outbound.ts';
import { Problem, validationError } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import { presentDelivery } from './presenters.ts';
import { deliveriesRepository } from './deliveriesRepository.ts';
import { eventsRepository } from './eventsRepository.ts';
import { subscriptionsRepository, type SubscriptionLimits, type SubscriptionRefusal, type SubscriptionRow, type Surface } from './subscriptionsRepository.ts';
import { newSecret } from './signature.ts';

type Schemas = components['schemas'];

/**
 * How many subscriptions an organization holds on each surface (createWebhookSubscription,
 * v1CreateWebhook: 409 `conflict` past them). Every event goes to each subscription to its
 * type, with up to 3 attempts each, so these bound what one event can send.
 */
export const subscriptionLimits: SubscriptionLimits = { perOrganization: 50, perEventType: 25 };

/** The 409 `conflict` of each refusal, in each surface's words (v1's errors end without a period). */
function refused(refusal: SubscriptionRefusal, surface: Surface, eventType: string): Problem {
  const sentence =
    refusal === 'duplicate'
      ? 'A subscription for this url and eventType already exists'
      : refusal === 'event-type-limit'
        ? `The organization already has ${subscriptionLimits.perEventType} subscriptions to ${eventType}; delete one before creating another`
        : `The organization already has ${subscriptionLimits.perOrganization} ${surface} webhook subscriptions; delete one before creating another`;
  return new Problem('conflict', surface === 'v2' ? `${sentence}.` : sentence);
}

/**
 * Creates a subscription and returns it with its secret, the only time the secret leaves
 * the database. v2: https in production, http also in the sandbox. v1: https everywhere.
 * Production, and a shared sandbox (RAMP_OUTBOUND_PUBLIC_ONLY), refuse hosts that are
 * loopback, private or local. At most `subscriptionLimits` per organization and surface.
 */
export async function createSubscription(
  services: Services,
  organizationId: string,
  surface: Surface,
  request: { url: string; eventType: SubscriptionRow['event_type'] },
): Promise<SubscriptionRow> {
  const production = services.config.env === 'production';
  const problem = urlProblem(request.url, { httpsOnly: surface === 'v1' || production, ...publicOnlyRule(services.config) });
  if (problem) {
    if (surface === 'v2') throw validationError([{ pointer: '/url', detail: problem }]);
    throw new Problem('invalid-request', `url ${problem}`);
  }
  const now = services.clock.now().toISOString();
  const row: Omit<SubscriptionRow, 'position'> = {
    id: randomUUID(),
    surface,
    organization_id: organizationId,
    event_type: request.eventType,
    url: request.url,
    secret: newSecret(),
    created_at: now,
    updated_at: now,
  };
  // The unique index decides between two concurrent creations: the loser is a conflict.
  const stored = await subscriptionsRepository(services.storage.db).insertSubscription(row, subscriptionLimits);
  if (typeof stored === 'string') throw refused(stored, surface, request.eventType);
  return stored;
}

export async function getSubscription(services: Pick<Services, 'storage'>, organizationId: string, surface: Surface, id: string): Promise<SubscriptionRow> {
  const row = await subscriptionsRepository(services.storage.db).findSubscription(organizationId, surface, id);
  if (!row) throw notFound(surface, id);
  return row;
}

export async function deleteSubscription(services: Pick<Services, 'storage'>, organizationId: string, surface: Surface, id: string): Promise<void> {
  const deleted = await services.storage.db.transaction().execute((tx) => subscriptionsRepository(tx).deleteSubscription(organizationId, surface, id));
  if (!deleted) throw notFound(surface, id);
}

const notFound = (surface: Surface, id: string) =>
  new Problem('not-found', surface === 'v2' ? `Webhook subscription ${id} was not found.` : 'Webhook not found');

/** A page of the organization's subscriptions of one surface, oldest first. */
export function listSubscriptions(services: Pick<Services, 'storage'>, organizationId: string, surface: Surface, page: { size: number; number: number }) {
  return subscriptionsRepository(services.storage.db).listSubscriptions(organizationId, surface, page);
}

/** A page of the deliveries of one of the organization's v2 subscriptions (of one event, with `eventId`), with their attempts, newest first. */
export async function listDeliveries(services: Pick<Services, 'storage'>, organizationId: string, subscriptionId: string, page: { size: number; number: number }, eventId?: string) {
  const subscription = await getSubscription(services, organizationId, 'v2', subscriptionId);
  const deliveries = deliveriesRepository(services.storage.db);
  const { items, total } = await deliveries.listDeliveries(subscription.id, page, eventId?.toLowerCase());
  const attempts = await deliveries.attemptsOf(items.map((d) => d.id));
  return { items: items.map((d) => presentDelivery(d, subscription.event_type, attempts.get(d.id) ?? [])), total };
}

/**
 * Sandbox: delivers a stored v2 event of the partner again, byte for byte the same body, to
 * each of the partner's current subscriptions to its type, as new deliveries due now. A
 * subscription that still has a pending delivery of the event gets no second one: the answer
 * shows that delivery as it stands, so repeated re-sends never pile up deliveries to a host.
 */
export async function resendEvent(services: Services, partnerId: string, eventId: string) {
  if (services.config.env === 'production') throw new Problem('forbidden', 'Sandbox simulation is not available in production.');
  const { db, engine } = services.storage;
  // Deliveries are on real time, whatever the partner's sandbox clock says (EventTimes).
  const now = services.realClock.now().toISOString();
  return db.transaction().execute(async (tx) => {
    const deliveries = deliveriesRepository(tx);
    // Held until commit: a concurrent re-send of the event sees the deliveries this one makes.
    const event = await eventsRepository(tx).findEventForUpdate(partnerId, 'v2', eventId.toLowerCase(), engine);
    if (!event) throw new Problem('not-found', `Event ${eventId} was not found.`);
    const subscriptions = await subscriptionsRepository(tx).matchingSubscriptions(partnerId, 'v2', event.type);
    const pending = new Map((await deliveries.pendingDeliveriesOf(event.id)).map((d) => [d.subscription_id, d]));
    const made = await deliveries.insertDeliveries(event.id, subscriptions.filter((s) => !pending.has(s.id)).map((s) => s.id), now);
    const bySubscription = new Map([...pending, ...made.map((d) => [d.subscription_id, d] as const)]);
    const attempts = await deliveries.attemptsOf([...pending.values()].map((d) => d.id));
    return {
      eventId: event.id,
      eventType: event.type as Schemas['WebhookEventType'],
      deliveries: subscriptions.map((s) => bySubscription.get(s.id)!).map((d) => presentDelivery(d, event.type, attempts.get(d.id) ?? [])),
      newDeliveryIds: made.map((d) => d.id),
    };
  });
}
