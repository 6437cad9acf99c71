/**
 * What the webhook tests share: a real HTTP(S) receiver on loopback, events recorded through
 * the outbox as the money flows do, a reference JCS, and the contract's webhook schemas.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { formatApiKey, newKeyId } from '../../server/features/apiKeys/rules.ts';
import { bootstrapSeedKey } from '../../server/features/apiKeys/bootstrap.ts';
import { deliveriesRepository } from '../../server/features/webhooks/deliveriesRepository.ts';
import { presentDelivery } from '../../server/features/webhooks/presenters.ts';
import { recordV1Event, recordV2Event, type V1Entities, type V1EventType, type V2EventType, type V2Objects } from '../../server/features/webhooks/outbox.ts';
import { loadBundle, type Json } from './documents.ts';
import type { Schema } from '../../client/index.ts';
import type { webhooks } from '../../generated/types/ramp.ts';
import { expectStatus } from './api.ts';
import { deliveries } from './fixtures.ts';
import type { TestServer } from './server.ts';

const addFormats = formats as unknown as typeof formats.default;

/**
 * The JCS and signature vectors: the repository's copy of the workplace's shared set
 * (`test/vectors/jcs`, byte-identical to `../shared/vectors/jcs` — signature.test.ts checks it
 * when that folder is there), or where RAMP_JCS_VECTORS says.
 */
export const vectors = process.env.RAMP_JCS_VECTORS ?? join(import.meta.dirname, '..', 'vectors', 'jcs');
/** The shared set beside the repository, when this machine has it. */
export const sharedVectors = join(import.meta.dirname, '..', '..', '..', 'shared', 'vectors', 'jcs');

/**
 * extra-vectors.json's cases, each input evaluated (the file writes them as JavaScript, since
 * some are no JSON text) and its expected canonical form ('ERROR': refused) as the rule says.
 */
export function extraVectors(): { name: string; input: unknown; expect: string }[] {
  const extra = JSON.parse(readFileSync(join(vectors, 'extra-vectors.json'), 'utf8')) as { cases: { name: string; input: string; expect: string; expect_note?: string }[] };
  /**
   * no-unicode-normalization: the file's `expect` holds U+00C5 (NFC), although the case, its
   * name, RFC 8785 section 3.2.3 and output/unicode.json all say the input's "A" + U+030A
   * must come out as it went in. The tests hold the rule, not that typo.
   */
  const corrected: Record<string, string> = { 'no-unicode-normalization': '{"u":"A\u030a"}' };
  return extra.cases.map((c) => ({
    name: c.name,
    input: new Function(`return (${c.input});`)() as unknown,
    // "shown escaped here": the expected U+FFFF is a raw character.
    expect: corrected[c.name] ?? (c.expect_note?.includes('shown escaped') ? c.expect.replace('\\uFFFF', '\uFFFF') : c.expect),
  }));
}

export interface Received {
  at: number;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  /** The body parsed as JSON (undefined when it is not): `eventBody` reads it as an event. */
  body: unknown;
}

/** Every webhook of the contract, v1 and v2, by its name. */
export type WebhookName = keyof webhooks;
/** The body the contract documents for a webhook (its generated type). */
export type WebhookBody<E extends WebhookName> = NonNullable<webhooks[E]['post']>['requestBody']['content']['application/json'];

/** What the receiver does with a request: answer a status (with a body), never answer, or drop the connection. */
export type Reaction = number | { status: number; body: string } | 'hang' | 'drop';

export interface Receiver {
  url: string;
  received: Received[];
  /** Requests to one path. */
  to(path: string): Received[];
  /** The bodies of the requests to one path, each checked against `event`'s schema (eventBody). */
  events<E extends WebhookName>(path: string, event: E): WebhookBody<E>[];
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1, made once per test file with openssl. */
export function selfSignedCertificate(): { key: string; cert: string; certFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ramp-tls-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'ignore' });
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

/** Listens on 127.0.0.1, port 0; `react(path, count, request)` decides each answer (count starts at 1 per path). */
export async function startReceiver(react: (path: string, count: number, request: Received) => Reaction = () => 200, tls?: { key: string; cert: string }): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = req.url ?? '/';
      let body: unknown;
      try { body = JSON.parse(raw.toString('utf8')); } catch { body = undefined; }
      const request: Received = { at: Date.now(), path, headers: req.headers, raw, body };
      received.push(request);
      const reaction = react(path, received.filter((r) => r.path === path).length, request);
      if (reaction === 'hang') hanging.add(res);
      else if (reaction === 'drop') req.socket.destroy();
      else if (typeof reaction === 'object') res.writeHead(reaction.status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(reaction.body);
      else res.writeHead(reaction).end();
    });
  };
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    received,
    to: (path) => received.filter((r) => r.path === path),
    events: (path, event) => received.filter((r) => r.path === path).map((r) => eventBody(r, event)),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Waits for expected events: one budget for every test (test/support/wait.ts). */
export { eventually } from './wait.ts';

/** A reference RFC 8785 for the JSON our payloads hold, written apart from the library the server uses. */
export function referenceJcs(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(referenceJcs).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    // Keys sorted by UTF-16 code units: JavaScript's default string order.
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${referenceJcs((value as Json)[k])}`).join(',')}}`;
  }
  // ES2019 JSON.stringify: shortest round-trip numbers and the JCS string escapes.
  return JSON.stringify(value);
}

/** The contract's webhook body examples, by event name, for both generations. */
const joined = loadBundle('ramp');
export function exampleOf(event: string): Json {
  const media = joined.webhooks[event].post.requestBody.content['application/json'];
  return Object.values<Json>(media.examples)[0]!.value;
}

let compiled: ((event: string, body: unknown) => ErrorObject[]) | undefined;

/**
 * An ajv validator of each webhook's body schema in generated/openapi/ramp.yaml, compiled on
 * the first call (a test file's beforeAll: not while a delivery waits on this process's event
 * loop) and shared after.
 */
export function webhookValidator(): (event: string, body: unknown) => ErrorObject[] {
  return (compiled ??= compileWebhookValidator());
}

function compileWebhookValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: false });
  addFormats(ajv);
  const id = 'https://contract.ramp.example/ramp-webhooks';
  ajv.addSchema({ ...joined, $id: id });
  // Compiled now, not while a delivery waits on this process's event loop.
  const validators = new Map(
    Object.keys(joined.webhooks).map((event) => [event, ajv.getSchema(`${id}#/webhooks/${event}/post/requestBody/content/application~1json/schema`)]),
  );
  return (event: string, body: unknown) => {
    const validate = validators.get(event);
    if (!validate) throw new Error(`no schema for webhook ${event}`);
    return validate(body) ? [] : validate.errors ?? [];
  };
}

/**
 * A received body as the webhook `event`, typed as the contract documents it: a body that
 * breaks that webhook's schema fails the test here, naming what did not match.
 */
export function eventBody<E extends WebhookName>(request: Received, event: E): WebhookBody<E> {
  const errors = webhookValidator()(event, request.body);
  if (errors.length > 0) throw new Error(`${request.path}: not a ${event} body (${JSON.stringify(errors)}): ${request.raw.toString('utf8').slice(0, 500)}`);
  return request.body as WebhookBody<E>;
}

/** The `eventId` of a v2 event body, without checking the body against a schema (undefined for other bodies). */
export const eventIdOf = (request: Received): string | undefined => {
  const body = request.body as { eventId?: unknown } | undefined;
  return typeof body?.eventId === 'string' ? body.eventId : undefined;
};

export const v2Events = ['orderUpdated', 'paymentAccountUpdated', 'kycUpdated', 'kybUpdated'] as const satisfies readonly V2EventType[];
export const v1Events = ['order_updated', 'swap_updated', 'customer_updated', 'kyc_updated', 'kyb_updated', 'bank_account_updated'] as const satisfies readonly V1EventType[];

/** The object part of a v2 event, from the contract's example of it. */
export function v2Object<T extends V2EventType>(type: T): V2Objects[T] {
  const { event: _e, eventId: _i, occurredAt: _o, organizationId: _g, ...object } = exampleOf(type);
  return object as V2Objects[T];
}

/**
 * The organization an emitted event is about: the partner itself, or with `organizationId`
 * one of its customers (the partner defaults to the server's).
 */
function eventOrganization(server: TestServer, options: { organizationId?: string; partnerId?: string }) {
  const partnerId = options.partnerId ?? server.partnerId;
  const id = options.organizationId ?? partnerId;
  return { id, parent_id: id === partnerId ? null : partnerId };
}

/** Records a v2 event in its own transaction, as a state change would. */
export async function emitV2<T extends V2EventType>(server: TestServer, type: T, options: { organizationId?: string; partnerId?: string; object?: V2Objects[T] } = {}) {
  return server.services.storage.db.transaction().execute((tx) =>
    recordV2Event(tx, { type, organization: eventOrganization(server, options), occurredAt: new Date(), object: options.object ?? v2Object(type) }),
  );
}

export async function emitV1<T extends V1EventType>(server: TestServer, type: T, options: { organizationId?: string; entity?: V1Entities[T] } = {}) {
  const entity = options.entity ?? (exampleOf(type)[type] as V1Entities[T]);
  return server.services.storage.db.transaction().execute((tx) =>
    recordV1Event(tx, { type, organization: eventOrganization(server, options), occurredAt: new Date(), entity }),
  );
}

/** A customer (child) organization of the server's partner. */
export async function customerOf(server: TestServer): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await server.services.storage.db
    .insertInto('organizations')
    .values({ id, parent_id: server.partnerId, type: 'personal', display_name: 'Customer', key_salt: 'x', kyb_status: 'notStarted', kyb_approved_at: null, kyc_status: 'approved', created_at: now, updated_at: now })
    .execute();
  return id;
}

/** A v2 subscription (`createWebhookSubscription`), with the secret its 201 shows once. */
export async function subscribe(server: TestServer, url: string, eventType: Schema<'WebhookEventType'>) {
  return expectStatus(await server.api.POST('/webhook_subscription', { body: { url, eventType } }), 201);
}

/** A v1 subscription (`v1CreateWebhook`; its URL must be https), with the secret its 201 shows once. */
export async function subscribeV1(server: TestServer, url: string, eventType: Schema<'V1WebhookEventType'>) {
  return expectStatus(await server.api.POST('/ramp/webhook', { body: { url, eventType } }), 201);
}

/** The deliveries of a v2 subscription (`listWebhookDeliveries`, fixtures.ts), acting with `key` when given. */
export const deliveriesOf = (server: TestServer, subscriptionId: string, key?: string) => deliveries(key ? server.as(key) : server.api, subscriptionId);

/** Every delivery of any subscription (v1 ones included), read from the database as the deliveries endpoint shows them. */
export async function storedDeliveries(server: TestServer, subscriptionId: string) {
  const repository = deliveriesRepository(server.services.storage.db);
  const { items } = await repository.listDeliveries(subscriptionId, { size: 100, number: 0 });
  const attempts = await repository.attemptsOf(items.map((d) => d.id));
  return items.map((d) => presentDelivery(d, '', attempts.get(d.id) ?? []));
}
