/**
 * `X-Signature: sha256={hex}` (the X-Signature header of every webhook): HMAC-SHA256 over the RFC 8785 (JCS) canonical
 * form of the body, keyed with the subscription secret decoded from base64url.
 * The canonical form is server/shared/jcs.ts's.
 */
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

/** 32 random bytes, base64url with `=` padding (RFC 4648 section 5): 44 characters. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url') + '=';
}

const secretPattern = /^[A-Za-z0-9_-]{43}=$/;

/** The HMAC key of a secret; refuses anything but the exact 44-character padded form. */
export function secretKey(secret: string): Buffer {
  if (!secretPattern.test(secret)) throw new TypeError('a webhook secret is 44 base64url characters ending in =');
  const key = Buffer.from(secret.slice(0, 43), 'base64url');
  // 43 characters carry 258 bits: the last 2 must be zero for a canonical 32-byte encoding.
  if (key.length !== 32 || key.toString('base64url') !== secret.slice(0, 43)) throw new TypeError('a webhook secret decodes to 32 bytes');
  return key;
}

/** HMAC keys by secret: a delivery run signs for the same few subscriptions over and over. */
const keys = new Map<string, KeyObject>();

/** The `X-Signature` value of canonical body bytes. */
export function signCanonical(canonical: string, secret: string): string {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 1000) keys.clear();
    keys.set(secret, (key = createSecretKey(secretKey(secret))));
  }
  return `sha256=${createHmac('sha256', key).update(canonical, 'utf8').digest('hex')}`;
}
