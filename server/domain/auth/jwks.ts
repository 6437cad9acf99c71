/**
 * A partner's JSON Web Key Set: which keys we accept (public, usable with ES256, RS256 or
 * EdDSA) and fetching one from a `jwksUri` with a timeout and a size limit.
 */
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { importJWK, type JWK } from 'jose';
import type { FieldError } from '../../problems.ts';
import { acceptedAlgorithms, jwksFetchTimeoutMs, jwksMaxBytes } from './rules.ts';

export interface Jwks {
  keys: JWK[];
}

const privateMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** The algorithm a key is used with, or a reason it is refused. */
function algorithmOf(key: Record<string, unknown>): { alg: string } | { reason: string } {
  if (privateMembers.some((m) => m in key)) return { reason: 'is a private key; send only the public key' };
  if (key.use !== undefined && key.use !== 'sig') return { reason: 'must have use "sig"' };
  let alg: string;
  if (key.kty === 'RSA') {
    if (typeof key.n !== 'string' || typeof key.e !== 'string') return { reason: 'is an RSA key without n and e' };
    // Anything under 2048 bits is too weak to sign people in. The modulus is measured as the
    // verifier measures it (leading zero bytes of `n` do not count), not by the length of its
    // base64url: a padded short key would pass here and make every JWT naming it fail later.
    const bits = rsaModulusBits(key);
    if (bits === undefined) return { reason: 'is not a valid RSA public key' };
    if (bits < 2048) return { reason: `is an RSA key of ${bits} bits; at least 2048 are required` };
    alg = 'RS256';
  } else if (key.kty === 'EC') {
    if (key.crv !== 'P-256') return { reason: 'is an EC key not on P-256 (ES256)' };
    alg = 'ES256';
  } else if (key.kty === 'OKP') {
    if (key.crv !== 'Ed25519') return { reason: 'is an OKP key not on Ed25519 (EdDSA)' };
    alg = 'EdDSA';
  } else {
    return { reason: 'must have kty RSA, EC or OKP' };
  }
  if (key.alg !== undefined && key.alg !== alg) {
    return { reason: `has alg ${String(key.alg)}, which is not accepted for this key (${acceptedAlgorithms.join(', ')})` };
  }
  return { alg };
}

function rsaModulusBits(key: Record<string, unknown>): number | undefined {
  try {
    return createPublicKey({ key: { kty: 'RSA', n: key.n, e: key.e } as JsonWebKey, format: 'jwk' }).asymmetricKeyDetails?.modulusLength;
  } catch {
    return undefined;
  }
}

/** Field errors of a JWKS (pointers under `at`), or none when every key is acceptable. */
export async function jwksErrors(jwks: unknown, at: string): Promise<FieldError[]> {
  if (!jwks || typeof jwks !== 'object' || !Array.isArray((jwks as Jwks).keys)) {
    return [{ pointer: at, detail: 'must be a JSON Web Key Set: an object with a keys array' }];
  }
  const keys = (jwks as { keys: unknown[] }).keys;
  if (keys.length === 0 || keys.length > 10) return [{ pointer: `${at}/keys`, detail: 'must hold 1 to 10 keys' }];
  const errors: FieldError[] = [];
  const kids = new Set<string>();
  for (const [i, key] of keys.entries()) {
    const pointer = `${at}/keys/${i}`;
    if (!key || typeof key !== 'object') {
      errors.push({ pointer, detail: 'must be a JSON Web Key' });
      continue;
    }
    const k = key as Record<string, unknown>;
    const usable = algorithmOf(k);
    if ('reason' in usable) {
      errors.push({ pointer, detail: usable.reason });
      continue;
    }
    if (k.kid !== undefined) {
      if (typeof k.kid !== 'string') errors.push({ pointer: `${pointer}/kid`, detail: 'must be a string' });
      else if (kids.has(k.kid)) errors.push({ pointer: `${pointer}/kid`, detail: `duplicates kid ${k.kid}` });
      else kids.add(k.kid);
    }
    try {
      await importJWK(k as JWK, usable.alg);
    } catch (error) {
      errors.push({ pointer, detail: `is not a valid key: ${(error as Error).message}` });
    }
  }
  return errors;
}

export class JwksFetchError extends Error {}

/** GET the JWKS at `uri`: JSON, at most 64 KiB, within the timeout, no redirects. */
export async function fetchJwks(uri: string): Promise<Jwks> {
  let response: Response;
  try {
    response = await fetch(uri, {
      headers: { Accept: 'application/jwk-set+json, application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(jwksFetchTimeoutMs),
    });
  } catch (error) {
    const e = error as Error;
    throw new JwksFetchError(e.name === 'TimeoutError' ? `no answer within ${jwksFetchTimeoutMs / 1000} s` : `the request failed (${e.message})`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new JwksFetchError(`it answered HTTP ${response.status}`);
  }
  const text = await readLimited(response, jwksMaxBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new JwksFetchError('it did not answer JSON');
  }
  const errors = await jwksErrors(body, '');
  if (errors.length > 0) throw new JwksFetchError(`it did not answer an acceptable JWKS: ${errors.map((e) => `${e.pointer || '/'} ${e.detail}`).join('; ')}`);
  return { keys: (body as Jwks).keys };
}

async function readLimited(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new JwksFetchError(`it answered more than ${limit / 1024} KiB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
