/** The outbox's tables: events, and the webhook subscriptions, deliveries and attempts that carry them. */
import type { components } from '../../../generated/types/ramp.ts';

type Schemas = components['schemas'];
/** Events and subscriptions of both surfaces share their tables. */
type EventType = Schemas['WebhookEventType'] | Schemas['V1WebhookEventType'];

export interface EventsTable {
  id: string;
  surface: 'v1' | 'v2';
  type: EventType;
  /** The organization whose webhook subscriptions receive the event. */
  partner_id: string;
  organization_id: string;
  /** The JSON body exactly as delivered. */
  payload: string;
  occurred_at: string;
  /** Its place in its partner's event feed (migration 130; null only for a row written behind the repositories' back). */
  position: number | null;
  /** What it is about: an order, payment account, swap, bank account or organization id (migration 130). */
  subject_id: string | null;
}

export interface WebhookSubscriptionsTable {
  id: string;
  /** v1 and v2 subscriptions are apart: each receives its own surface's events only. */
  surface: 'v1' | 'v2';
  /** The key's organization (the partner): it receives its own and its customers' events. */
  organization_id: string;
  event_type: EventType;
  url: string;
  /** base64url of the 32-byte HMAC key; shown once, kept to sign deliveries. */
  secret: string;
  /** Position among the organization's subscriptions of this surface (100-list-positions). */
  position: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  subscription_id: string;
  event_id: string;
  status: Schemas['WebhookDeliveryStatus'];
  /** Attempts claimed so far (1 to 3). */
  attempts: number;
  /** When the next attempt is due (while one is in flight: when its lease ends); null once done. */
  next_attempt_at: string | null;
  /** Position among the subscription's deliveries (100-list-positions). */
  position: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  number: number;
  started_at: string;
  finished_at: string | null;
  status_code: number | null;
  error: string | null;
  /** The first bytes of the receiver's answer, as text (migration 130). */
  response_excerpt: string | null;
}
