/**
 * Subscriptions (createWebhookSubscription, v1CreateWebhook) and what partners see of deliveries.
 * v1 and v2 subscriptions live apart: each surface lists, reads and deletes its own only,
 * and each receives only its own surface's events.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/types/ramp.ts';
import { urlProblem } from '../../shared/outbound.ts';
import { Problem, validationError } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import type { Db } from '../../storage/database.ts';
import { presentDelivery } from './presenters.ts';
import { webhooksRepository, type SubscriptionRow, type Surface } from './repository.ts';
import { newSecret } from './signature.ts';

type Schemas = components['schemas'];

const duplicate = (surface: Surface) =>
  new Problem('conflict', surface === 'v2' ? 'A subscription for this url and eventType already exists.' : 'A subscription for this url and eventType already exists');

/**
 * Creates a subscription and returns it with its secret, the only time the secret leaves
 * the database. v2: https in production, http also in the sandbox. v1: https everywhere.
 * Production refuses hosts that are loopback, private or local.
 */
export async function createSubscription(
  services: Services,
  organizationId: string,
  surface: Surface,
  request: { url: string; eventType: SubscriptionRow['event_type'] },
): Promise<SubscriptionRow> {
  const production = services.config.env === 'production';
  const problem = urlProblem(request.url, { httpsOnly: surface === 'v1' || production, publicOnly: production });
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
  const stored = await webhooksRepository(services.storage.db).insertSubscription(row);
  if (!stored) throw duplicate(surface);
  return stored;
}

export async function getSubscription(db: Db, organizationId: string, surface: Surface, id: string): Promise<SubscriptionRow> {
  const row = await webhooksRepository(db).findSubscription(organizationId, surface, id);
  if (!row) throw notFound(surface, id);
  return row;
}

export async function deleteSubscription(db: Db, organizationId: string, surface: Surface, id: string): Promise<void> {
  const deleted = await db.transaction().execute((tx) => webhooksRepository(tx).deleteSubscription(organizationId, surface, id));
  if (!deleted) throw notFound(surface, id);
}

const notFound = (surface: Surface, id: string) =>
  new Problem('not-found', surface === 'v2' ? `Webhook subscription ${id} was not found.` : 'Webhook not found');

/** A page of the organization's subscriptions of one surface, oldest first. */
export function listSubscriptions(db: Db, organizationId: string, surface: Surface, page: { size: number; number: number }) {
  return webhooksRepository(db).listSubscriptions(organizationId, surface, page);
}

/** A page of one v2 subscription's deliveries with their attempts, newest first. */
export async function listDeliveries(db: Db, subscription: SubscriptionRow, page: { size: number; number: number }) {
  const repository = webhooksRepository(db);
  const { items, total } = await repository.listDeliveries(subscription.id, page);
  const attempts = await repository.attemptsOf(items.map((d) => d.id));
  return { items: items.map((d) => presentDelivery(d, subscription.event_type, attempts.get(d.id) ?? [])), total };
}

/**
 * Sandbox: delivers a stored v2 event of the partner again, byte for byte the same body, to
 * each of the partner's current subscriptions to its type, as new deliveries due now.
 */
export async function resendEvent(services: Services, partnerId: string, eventId: string) {
  if (services.config.env === 'production') throw new Problem('forbidden', 'Sandbox simulation is not available in production.');
  const { db } = services.storage;
  // Deliveries are on real time, whatever the partner's sandbox clock says (EventTimes).
  const now = services.realClock.now().toISOString();
  return db.transaction().execute(async (tx) => {
    const repository = webhooksRepository(tx);
    const event = await repository.findEvent(partnerId, 'v2', eventId.toLowerCase());
    if (!event) throw new Problem('not-found', `Event ${eventId} was not found.`);
    const subscriptions = await repository.matchingSubscriptions(partnerId, 'v2', event.type);
    const deliveries = await repository.insertDeliveries(event.id, subscriptions.map((s) => s.id), now);
    return {
      eventId: event.id,
      eventType: event.type as Schemas['WebhookEventType'],
      deliveries: deliveries.map((d) => presentDelivery(d, event.type, [])),
    };
  });
}
