/**
 * The outbox: every event is written in the same transaction as the state change that
 * causes it, so a crash never loses one nor invents one. Delivery (webhooks/delivery.ts)
 * reads it later. Callers pass the object exactly as its GET returns it.
 *
 * In that same transaction the event is fanned out: one pending delivery per subscription
 * of the partner to the event's surface and type, so a subscription made later does not
 * receive it and a deleted one no longer does.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { components } from '../../../generated/types/ramp.ts';
import type { Tx } from '../../storage/database.ts';
import { notifyAtCommit } from '../../storage/notifications.ts';
import { partnerOf, type OrganizationRow } from '../organizations/repository.ts';
import { deliveriesRepository } from './deliveriesRepository.ts';
import { eventsRepository } from './eventsRepository.ts';
import { subscriptionsRepository } from './subscriptionsRepository.ts';
import { canonicalJson } from '../../shared/jcs.ts';
import { eventSubjectId } from '../../shared/eventSubject.ts';

type Schemas = components['schemas'];

/** The object each v2 event carries beside its envelope, by event type. */
interface V2ObjectsByType {
  orderUpdated: { order: Schemas['Order'] };
  paymentAccountUpdated: { paymentAccount: Schemas['PaymentAccount'] };
  kycUpdated: { kyc: Schemas['Kyc'] };
  kybUpdated: { kyb: Schemas['Kyb'] };
}

/** The entity each v1 event carries, by event type. */
interface V1EntitiesByType {
  order_updated: Schemas['V1Order'];
  swap_updated: Schemas['V1Swap'];
  customer_updated: Schemas['V1Customer'];
  kyc_updated: Schemas['V1KycUpdatedEvent']['kyc_updated'];
  kyb_updated: Schemas['V1Kyb'];
  bank_account_updated: Schemas['V1BankAccount'];
}

export type V2EventType = Schemas['WebhookEventType'];
export type V1EventType = Schemas['V1WebhookEventType'];

/** One entry per event type of the contract: a type the maps above lack fails `tsc`. */
export type V2Objects = { [T in V2EventType]: V2ObjectsByType[T] };
export type V1Entities = { [T in V1EventType]: V1EntitiesByType[T] };

/** The organization an event is about: its row, or the part of it the outbox reads. */
export type EventOrganization = Pick<OrganizationRow, 'id' | 'parent_id'>;

/**
 * When an event happened and when its deliveries are due. `occurredAt` is on the partner's
 * sandbox clock (what the body says); `deliverFrom` is real time (Services.realClock): a
 * partner's clock moved ahead never holds a delivery back, nor does a frozen one.
 */
export interface EventTimes {
  occurredAt: Date;
  /** Real time; only callers on real time (tests, the bench) may leave it to `occurredAt`. */
  deliverFrom?: Date;
}

/** A v2 event: its type and the object it carries beside its envelope. */
export type V2Event<T extends V2EventType = V2EventType> = { [K in T]: { type: K; object: V2Objects[K] } }[T];
/** A v1 event: its type and the entity it carries. */
export type V1Event<T extends V1EventType = V1EventType> = { [K in T]: { type: K; entity: V1Entities[K] } }[T];

/** Who an event is about and when: what every recorded event adds to its type and object. */
export type Recorded<E> = E & { organization: EventOrganization } & EventTimes;

export async function recordV2Event<T extends V2EventType>(tx: Tx, event: Recorded<{ type: T; object: V2Objects[T] }>): Promise<string> {
  const { type, organization, occurredAt, deliverFrom, object } = event;
  const eventId = randomUUID();
  // orderUpdated carries the organization inside the order; the others beside the object.
  const envelope = {
    event: type,
    eventId,
    occurredAt: occurredAt.toISOString(),
    ...(type === 'orderUpdated' ? {} : { organizationId: organization.id }),
    ...object,
  };
  await insert(tx, { id: eventId, surface: 'v2', type, organization, occurredAt, deliverFrom, payload: envelope });
  return eventId;
}

export async function recordV1Event<T extends V1EventType>(tx: Tx, event: Recorded<{ type: T; entity: V1Entities[T] }>): Promise<string> {
  const id = randomUUID();
  const { occurredAt, deliverFrom } = event;
  await insert(tx, { id, surface: 'v1', type: event.type, organization: event.organization, occurredAt, deliverFrom, payload: { [event.type]: event.entity } });
  return id;
}

/** Records an event of either surface: a v1 event is the one that carries an `entity`. */
export const recordEvent = (tx: Tx, event: Recorded<V2Event | V1Event>): Promise<string> =>
  'entity' in event ? recordV1Event(tx, event) : recordV2Event(tx, event);

async function insert(
  tx: Tx,
  e: { id: string; surface: 'v1' | 'v2'; type: V2EventType | V1EventType; organization: EventOrganization; payload: unknown } & EventTimes,
) {
  const partnerId = partnerOf(e.organization);
  await eventsRepository(tx).insertEvent({
    id: e.id,
    surface: e.surface,
    type: e.type,
    partner_id: partnerId,
    organization_id: e.organization.id,
    // Canonical (RFC 8785): the very bytes each delivery sends and signs.
    payload: canonicalJson(e.payload),
    occurred_at: e.occurredAt.toISOString(),
    subject_id: eventSubjectId(e.surface, e.type, e.payload, e.organization.id),
  });
  const subscriptions = await subscriptionsRepository(tx).matchingSubscriptions(partnerId, e.surface, e.type);
  await deliveriesRepository(tx).insertDeliveries(e.id, subscriptions.map((s) => s.id), (e.deliverFrom ?? e.occurredAt).toISOString());
  if (subscriptions.length > 0) await wakeDelivery(tx);
}

/**
 * The wake-up of the delivery worker (server/features/webhooks/delivery.ts), so a delivery does not
 * wait for the next poll, and only once the transaction that recorded it has committed:
 * on PostgreSQL a NOTIFY, which the server sends at commit (never on rollback) to every
 * process listening; on SQLite an in-process signal, whose worker run begins with a query
 * that waits for this transaction's connection, the only one, so it reads after the commit
 * (a rolled-back delivery is simply not there). The poll stays the fallback.
 */
export const deliveriesChannel = 'ramp_webhook_deliveries';
const recorded = new EventEmitter().setMaxListeners(0);

export function onDeliveriesRecorded(listener: () => void): () => void {
  recorded.on('recorded', listener);
  return () => recorded.off('recorded', listener);
}

async function wakeDelivery(tx: Tx) {
  if (!(await notifyAtCommit(tx, deliveriesChannel))) recorded.emit('recorded');
}
