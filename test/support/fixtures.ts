/**
 * The fixtures of the HTTP tests, one of each: customers (a person or a business, approved or
 * not), approvals through the sandbox verification simulators, ready payment accounts, quotes
 * and orders, clocks (the server's, which a test moves, and the partner's sandbox clock), and
 * readers of the outbox and of webhook deliveries.
 *
 * Everything a partner can do is done the way a partner does it, through the typed client
 * (test/support/api.ts), so a fixture exercises the documented operation and its events. Only
 * what no key of the test partner can reach (another partner's organizations, a customer of a
 * customer, a key of a child) is written to storage, and says so.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { Schema, Schemas } from '../../client/index.ts';
import { bootstrapSeedKey } from '../../server/features/apiKeys/bootstrap.ts';
import { formatApiKey, newKeyId, newSalt } from '../../server/features/apiKeys/rules.ts';
import { issueApiKey } from '../../server/features/apiKeys/useCases.ts';
import { organizationsRepository } from '../../server/features/organizations/repository.ts';
import { makeClabe } from '../../server/shared/clabe.ts';
import { expectStatus, type Api } from './api.ts';
import type { TestServer } from './server.ts';

type OrganizationType = Schema<'Organization'>['type'];

// ---------------------------------------------------------------- customers and approvals

export interface CustomerOptions {
  type?: OrganizationType;
  /** Verification approved (KYC for a person, KYB for a business) through the simulators. */
  approved?: boolean;
  displayName?: string;
  /** The id to ask for (`v1CreateOrganization` takes one). */
  organizationId?: string;
  /** The key that creates it: the server's partner by default (another key's own organization is then the parent). */
  key?: string;
}

/** A customer of the key's organization, made with `POST /ramp/organization` (`v1CreateOrganization`). */
export async function createCustomer(server: TestServer, o: CustomerOptions = {}): Promise<string> {
  const api = o.key ? server.as(o.key) : server.api;
  const created = expectStatus(await api.POST('/ramp/organization', {
    body: { displayName: o.displayName ?? `Customer ${randomUUID().slice(0, 8)}`, type: o.type ?? 'personal', ...(o.organizationId ? { organizationId: o.organizationId } : {}) },
  }), 201);
  if (o.approved) await approve(server, created.organizationId, o.key);
  return created.organizationId;
}

/**
 * Approves an organization's KYC (a person) or KYB (a business) with the sandbox verification
 * simulators (`simulateKyc` / `simulateKyb`), recording the events a real approval records.
 * `key` acts for the organization's parent when that is not the test partner.
 */
export async function approve(server: TestServer, organizationId: string, key?: string) {
  const api = key ? server.as(key) : server.api;
  const organization = expectStatus(await api.GET('/organization/{organizationId}', { params: { path: { organizationId } } }), 200);
  if (server.services.config.env === 'production') {
    // Production has no verification simulator (403 forbidden): the decision is written to storage.
    const now = server.services.clock.now().toISOString();
    await organizationsRepository(server.services.storage.db).update(organizationId,
      organization.type === 'personal' ? { kyc_status: 'approved', updated_at: now } : { kyb_status: 'approved', kyb_approved_at: now, updated_at: now });
    return;
  }
  const path = { params: { path: { organizationId } }, body: { status: 'approved' as const } };
  if (organization.type === 'personal') expectStatus(await api.POST('/sandbox/organization/{organizationId}/kyc', path), 200);
  else expectStatus(await api.POST('/sandbox/organization/{organizationId}/kyb', path), 200);
}

/**
 * An approved business customer with a key of its own. The partner's key cannot issue it
 * (`createApiKey` is for the key's own organization) and the child has no key yet to ask
 * with, so the key is issued by the apiKeys use case directly.
 */
export async function keyedBusinessChild(server: TestServer): Promise<{ id: string; key: string }> {
  const id = await createCustomer(server, { type: 'business', approved: true });
  const { key } = await issueApiKey(server.services, id);
  return { id, key };
}

/**
 * An organization under `parentId` that the test partner's key cannot reach (another
 * partner's, or a customer's own customer), written to storage: no key of the test can make
 * it. `approved` writes its verification as approved.
 */
export async function unreachableOrganization(
  server: TestServer,
  parentId: string | null,
  o: { type?: OrganizationType; approved?: boolean; displayName?: string } = {},
): Promise<string> {
  const id = randomUUID();
  const type = o.type ?? 'business';
  const now = server.services.clock.now().toISOString();
  await organizationsRepository(server.services.storage.db).insert({
    id, parentId, type, displayName: o.displayName ?? 'Another organization', keySalt: newSalt(), now,
    ...(o.approved ? (type === 'personal' ? { kycStatus: 'approved' as const } : { kybStatus: 'approved' as const, kybApprovedAt: now }) : {}),
  });
  return id;
}

/** An approved business of another partner (not reachable by the test partner's key). */
export const stranger = (server: TestServer, parentId: string | null = null) =>
  unreachableOrganization(server, parentId, { approved: true, displayName: 'Another partner' });

/** Another partner on the same server, with its own key, as the seed key at start makes one. */
export async function otherPartner(server: TestServer): Promise<{ key: string; partnerId: string }> {
  const key = formatApiKey(server.services.config.env === 'production' ? 'prod' : 'sand', newKeyId(), randomUUID());
  await bootstrapSeedKey(server.services.storage, { ...server.services.config, seedApiKey: key }, server.services.clock.now());
  return { key, partnerId: key.split(':')[2]! };
}

// ---------------------------------------------------------------- payment accounts, quotes, orders

/** A valid CLABE of a customer's own bank account (Banamex, 002), different each call. */
export const customerClabe = () => makeClabe('002', '010', String(randomInt(0, 100_000_000_000)).padStart(11, '0'));

/** A fresh valid Solana address (44 base58 characters). */
export const solanaAddress = () => {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  return Array.from({ length: 44 }, () => alphabet[randomInt(0, alphabet.length)]).join('');
};

/**
 * Registers a bank account for an organization (`createPaymentAccount`) and makes its SPEI
 * destination ready with the rail simulator (`simulatePaymentAccount`).
 */
export async function readyAccount(server: TestServer, organizationId: string, clabe = customerClabe(), api: Api = server.api): Promise<Schema<'PaymentAccount'>> {
  const params = { path: { organizationId } };
  const created = expectStatus(await api.POST('/organization/{organizationId}/payment_account', {
    params,
    body: { kind: 'bankAccount', rail: 'spei', accountDetails: { clabe }, registrationInfo: { accountHolderName: 'María Gómez Martínez', taxId: 'GOMM900101AB3' } },
  }), 201);
  return expectStatus(await api.POST('/sandbox/organization/{organizationId}/payment_account/{id}/simulate', {
    params: { path: { organizationId, id: created.id } },
    body: { action: 'setRailStatus', rail: 'spei', direction: 'destination', status: 'ready' },
  }), 200);
}

/** A firm quote (`createQuote`). */
export async function quote(server: TestServer, organizationId: string, body: Schema<'QuoteRequest'>, api: Api = server.api): Promise<Schema<'Quote'>> {
  return expectStatus(await api.POST('/organization/{organizationId}/quote', { params: { path: { organizationId } }, body }), 201);
}

/** An order of a new quote (`createQuote`, then `createOrder`). */
export async function order(server: TestServer, organizationId: string, body: Schema<'QuoteRequest'>, api: Api = server.api): Promise<Schema<'Order'>> {
  const { quoteId } = await quote(server, organizationId, body, api);
  return expectStatus(await api.POST('/organization/{organizationId}/order', { params: { path: { organizationId } }, body: { quoteId } }), 201);
}

// ---------------------------------------------------------------- clocks

/**
 * The server's clock, moved only by the test (`startTestServer({ clock })`): timers and jobs act
 * exactly when the test says. `distinctReadings` moves it one millisecond on each reading, so
 * events recorded one after another have distinct times; without it, a reading is exactly
 * where the test put the clock (what tests of due times compare).
 */
export function manualClock(o: { start?: Date | string; distinctReadings?: boolean } = {}) {
  let now = o.start === undefined ? Date.now() : new Date(o.start).getTime();
  const step = o.distinctReadings ? 1 : 0;
  return {
    now: () => {
      const reading = new Date(now);
      now += step;
      return reading;
    },
    advance(ms: number) {
      now += ms;
    },
  };
}

export type ManualClock = ReturnType<typeof manualClock>;

/**
 * The partner's sandbox clock (`getSandboxClock`, `setSandboxClock`, `advanceSandboxClock`):
 * the time of one partner's objects, which it may freeze and move forward.
 */
export function sandboxClock(api: Api) {
  return {
    read: async () => expectStatus(await api.GET('/sandbox/clock'), 200),
    set: async (body: Schema<'SandboxClockRequest'>) => expectStatus(await api.PUT('/sandbox/clock', { body }), 200),
    advance: async (body: Schema<'AdvanceSandboxClockRequest'>) => expectStatus(await api.POST('/sandbox/clock/advance', { body }), 200),
  };
}

// ---------------------------------------------------------------- the outbox and deliveries

type V2EventType = Schema<'WebhookEventType'>;
type V1EventType = Schema<'V1WebhookEventType'>;
/** A v2 event's body by its type: `orderUpdated` → the contract's `OrderUpdatedEvent`. */
export type V2Payload<T extends V2EventType> = Schemas[`${Capitalize<T>}Event`];
/** A v1 event's object by its type: the value under the body's single key (`order_updated` → `V1Order`). */
export type V1Entity<T extends V1EventType> = Extract<Schemas[keyof Schemas], Record<T, unknown>>[T];

/** A v1 event's body: its single key is the event type. */
export type V1Payload<T extends V1EventType> = { [K in T]: V1Entity<K> };

type Typed<Surface, T, Payload> = { surface: Surface; type: T; payload: Payload };
/** One row of the outbox, its payload typed by its surface and type (narrow on `type`). */
export type StoredEvent = { id: string; partnerId: string; organizationId: string; occurredAt: string } & (
  | { [T in V2EventType]: Typed<'v2', T, V2Payload<T>> }[V2EventType]
  | { [T in V1EventType]: Typed<'v1', T, V1Payload<T>> }[V1EventType]
);
export type EventType = StoredEvent['type'];
/** The body of an event of this type, of either surface. */
export type PayloadOf<T extends EventType> = Extract<StoredEvent, { type: T }>['payload'];

/** The body of the first of `events` of this type (it must be there). */
export function payloadOf<T extends EventType>(events: StoredEvent[], type: T): PayloadOf<T> {
  const found = events.find((e) => e.type === type);
  if (!found) throw new Error(`no ${type} event among ${events.map((e) => e.type).join(', ') || 'none'}`);
  return found.payload as PayloadOf<T>;
}

/** Every event stored so far, oldest first. */
export async function allEvents(server: TestServer): Promise<StoredEvent[]> {
  const rows = await server.services.storage.db.selectFrom('events').selectAll().orderBy('occurred_at').execute();
  // The outbox stores each body as the contract's webhook schema of its surface and type.
  return rows.map((r) => ({
    id: r.id, surface: r.surface, type: r.type, partnerId: r.partner_id, organizationId: r.organization_id, occurredAt: r.occurred_at, payload: JSON.parse(r.payload),
  }) as StoredEvent);
}

/** Runs `action` and returns the events it stored. */
export async function eventsDuring(server: TestServer, action: () => Promise<unknown>): Promise<StoredEvent[]> {
  const before = new Set((await allEvents(server)).map((e) => e.id));
  await action();
  return (await allEvents(server)).filter((e) => !before.has(e.id));
}

/** The v2 events of one type, oldest first, each its delivery body as the contract types it. */
export async function v2Events<T extends V2EventType>(server: TestServer, type: T): Promise<V2Payload<T>[]> {
  return (await allEvents(server)).filter((e) => e.type === type).map((e) => e.payload as V2Payload<T>);
}

/** The `orderUpdated` bodies of one order, oldest first. */
export async function orderEvents(server: TestServer, orderId: string) {
  return (await v2Events(server, 'orderUpdated')).filter((e) => e.order.id === orderId);
}

/** The `paymentAccountUpdated` bodies of one payment account, oldest first. */
export async function accountEvents(server: TestServer, accountId: string) {
  return (await v2Events(server, 'paymentAccountUpdated')).filter((e) => e.paymentAccount.id === accountId);
}

/** The v1 events of one type (of one object when `entityId` is given), oldest first, with their object. */
export async function v1Events<T extends V1EventType>(server: TestServer, type: T, entityId?: string) {
  return (await allEvents(server))
    .filter((e) => e.type === type)
    .map((e) => {
      const payload = e.payload as V1Payload<T>;
      if (Object.keys(payload).join() !== type) throw new Error(`a v1 ${type} body has the single key ${type}: ${JSON.stringify(payload)}`);
      return { partnerId: e.partnerId, organizationId: e.organizationId, occurredAt: e.occurredAt, entity: payload[type] };
    })
    .filter((e) => entityId === undefined || entityIdOf(e.entity) === entityId);
}

const entityIdOf = (entity: unknown) => {
  const { id, internalAccountId } = entity as { id?: string; internalAccountId?: string };
  return id ?? internalAccountId;
};

/** The deliveries of a webhook subscription, newest first (`listWebhookDeliveries`, one page of 100). */
export async function deliveries(api: Api, subscriptionId: string) {
  return expectStatus(await api.GET('/webhook_subscription/{id}/deliveries', { params: { path: { id: subscriptionId }, query: { pageSize: 100 } } }), 200).items;
}
