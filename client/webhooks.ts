/**
 * Verifying a webhook delivery (the X-Signature header of every webhook in v1.yaml and v2.yaml): `X-Signature: sha256={hex}` is
 * HMAC-SHA256 over the RFC 8785 (JCS) canonical form of the JSON body, keyed with the
 * subscription secret decoded from base64url (RFC 4648 section 5, `=` padding, 32 bytes).
 *
 *   const event = await verifyWebhook({ body: rawBody, signature: req.headers['x-signature'], secret });
 *   if (isV2Event(event)) … event.eventId …
 *
 * Web Crypto and TextDecoder only, so it runs in Node 20+, Deno, Bun and edge runtimes.
 * Everything wrong throws a WebhookVerificationError whose `reason` says what; nothing of
 * an unverified body is returned.
 */
import canonicalize from 'canonicalize';
import type { Schema } from './types.ts';

export type V2WebhookEvent = Schema<'OrderUpdatedEvent'> | Schema<'PaymentAccountUpdatedEvent'> | Schema<'KycUpdatedEvent'> | Schema<'KybUpdatedEvent'>;
export type V1WebhookEvent =
  | Schema<'V1OrderUpdatedEvent'>
  | Schema<'V1SwapUpdatedEvent'>
  | Schema<'V1CustomerUpdatedEvent'>
  | Schema<'V1KycUpdatedEvent'>
  | Schema<'V1KybUpdatedEvent'>
  | Schema<'V1BankAccountUpdatedEvent'>;
export type WebhookEvent = V2WebhookEvent | V1WebhookEvent;

/** v2 bodies are envelopes `{event, eventId, occurredAt, …}`; v1 bodies have one key, the event type. */
export function isV2Event(event: WebhookEvent): event is V2WebhookEvent {
  return typeof (event as { event?: unknown }).event === 'string' && typeof (event as { eventId?: unknown }).eventId === 'string';
}

export type WebhookVerificationReason = 'invalid-secret' | 'invalid-signature-header' | 'invalid-body' | 'signature-mismatch';

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyWebhookInput {
  /**
   * The body as received: the raw bytes or text (best), or the value a framework already
   * parsed from JSON (the signature covers the canonical form, so parsing loses nothing for
   * these payloads, whose amounts and ids are strings).
   */
  body: string | Uint8Array | ArrayBuffer | Record<string, unknown>;
  /** The `X-Signature` header; Node gives `string | string[] | undefined`. */
  signature: string | readonly string[] | null | undefined;
  /** The subscription's `secret`, exactly as the creation answer gave it (44 characters). */
  secret: string;
}

/** Checks the signature of a delivery and returns its event; throws WebhookVerificationError otherwise. */
export async function verifyWebhook(input: VerifyWebhookInput): Promise<WebhookEvent> {
  const key = decodeSecret(input.secret);
  const expected = parseSignature(input.signature);
  const value = parseBody(input.body);
  let canonical: string | undefined;
  try {
    canonical = canonicalize(value);
  } catch (error) {
    throw new WebhookVerificationError('invalid-body', `the body has no RFC 8785 form: ${(error as Error).message}`);
  }
  if (canonical === undefined) throw new WebhookVerificationError('invalid-body', 'the body has no RFC 8785 form');
  const hmacKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const actual = new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, new TextEncoder().encode(canonical)));
  if (!constantTimeEqual(actual, expected)) throw new WebhookVerificationError('signature-mismatch', 'X-Signature does not match the body and secret');
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new WebhookVerificationError('invalid-body', 'the body is not a JSON object');
  return value as WebhookEvent;
}

const secretPattern = /^[A-Za-z0-9_-]{43}=$/;
/** The 43rd character carries 2 bits of padding, which must be zero in a canonical encoding. */
const lastCharacters = 'AEIMQUYcgkosw048';

/** The 32-byte HMAC key: exactly 44 base64url characters ending in one `=`. */
export function decodeSecret(secret: string): Uint8Array<ArrayBuffer> {
  if (typeof secret !== 'string' || !secretPattern.test(secret) || !lastCharacters.includes(secret[42]!)) {
    throw new WebhookVerificationError('invalid-secret', 'the secret must be 44 base64url characters (RFC 4648 section 5) ending in =, decoding to 32 bytes');
  }
  const binary = atob(secret.replace(/-/g, '+').replace(/_/g, '/'));
  const key = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  if (key.length !== 32) throw new WebhookVerificationError('invalid-secret', 'the secret must decode to 32 bytes');
  return key;
}

function parseSignature(header: VerifyWebhookInput['signature']): Uint8Array {
  const value = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
  const match = typeof value === 'string' ? /^sha256=([0-9a-f]{64})$/.exec(value) : null;
  if (!match) throw new WebhookVerificationError('invalid-signature-header', 'X-Signature must be one header sha256={64 lowercase hex digits}');
  return Uint8Array.from(match[1]!.match(/../g)!, (pair) => parseInt(pair, 16));
}

function parseBody(body: VerifyWebhookInput['body']): unknown {
  if (typeof body !== 'string' && !(body instanceof Uint8Array) && !(body instanceof ArrayBuffer)) return body;
  let text: string;
  try {
    text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    throw new WebhookVerificationError('invalid-body', 'the body is not UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('invalid-body', 'the body is not JSON');
  }
}

/** Compares every byte whatever differs, so the time taken says nothing about where. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
