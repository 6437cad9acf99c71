/**
 * API keys (v2.yaml, Authentication): `api_{env}:{key_id}:{org_id}`, stored as a salted hash with the
 * owning organization's salt, compared in constant time, shown in full once and afterwards
 * by their first 16 characters.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../../config.ts';

export const maxActiveKeys = 5;
export const displayedPrefixLength = 16;

export type KeyEnv = 'sand' | 'prod';
export const keyEnvFor = (env: Environment): KeyEnv => (env === 'production' ? 'prod' : 'sand');

export interface ParsedKey {
  raw: string;
  env: KeyEnv;
  keyId: string;
  organizationId: string;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const keyShape = /^api_(sand|prod):([A-Za-z0-9]{16,64}):([^:]+)$/;

/** The three-segment form, or undefined: a Bearer prefix or any other shape is not a key. */
export function parseApiKey(raw: string): ParsedKey | undefined {
  const match = keyShape.exec(raw);
  if (!match || !uuid.test(match[3]!)) return undefined;
  return { raw, env: match[1] as KeyEnv, keyId: match[2]!, organizationId: match[3]!.toLowerCase() };
}

export function newKeyId(): string {
  return randomBytes(16).toString('hex');
}

export function newSalt(): string {
  return randomBytes(16).toString('hex');
}

export function formatApiKey(env: KeyEnv, keyId: string, organizationId: string): string {
  return `api_${env}:${keyId}:${organizationId}`;
}

/**
 * A pure function's answers kept for the last `limit` distinct inputs. Every authenticated
 * request hashes its key twice (the lookup digest and the salted hash), always to the same
 * values for one key: a partner's few keys need not be hashed again on each request. Only
 * digests are kept, never a decision: the key's row (revocation included) is still read and
 * compared on every request.
 */
function memoized(limit: number, fn: (input: string) => string): (input: string) => string {
  const kept = new Map<string, string>();
  return (input) => {
    let value = kept.get(input);
    if (value === undefined) {
      value = fn(input);
      if (kept.size >= limit) kept.delete(kept.keys().next().value!);
      kept.set(input, value);
    }
    return value;
  };
}

/** SHA-256 of `salt:raw`, memoized: the salt is hex and never holds ':', so `salt:raw` names one pair. */
const saltedKeyHash = memoized(1000, (saltAndRaw) => createHash('sha256').update(saltAndRaw).digest('hex'));

/** The hash stored for a key (issued, bootstrapped) and the one every request's key is compared with. */
export const hashApiKey = (raw: string, salt: string): string => saltedKeyHash(`${salt}:${raw}`);

export function hashMatches(raw: string, salt: string, stored: string): boolean {
  const actual = Buffer.from(hashApiKey(raw, salt), 'hex');
  const expected = Buffer.from(stored, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export const displayPrefix = (raw: string) => raw.slice(0, displayedPrefixLength);

/**
 * What finds a key's row: the SHA-256 of its `{key_id}` segment. The segment is the secret
 * part of the key (the rest is public), so storing it would store the key; 128 random bits
 * need no salt against guessing. The salted hash of the whole key still decides.
 */
export const keyLookup = memoized(1000, (keyId: string) => createHash('sha256').update(keyId).digest('hex'));

export const newOrganizationId = () => randomUUID();
