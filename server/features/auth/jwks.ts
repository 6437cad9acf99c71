/**
 * A partner's JSON Web Key Set: which keys we accept (public, usable with ES256, RS256 or
 * EdDSA) and fetching one from a `jwksUri` with a timeout and a size limit, to the addresses
 * webhook deliveries may reach (server/shared/outbound.ts).
 */
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { importJWK, type JWK } from 'jose';
import { AddressNotAllowed, connection, type Resolve } from '../../shared/outbound.ts';
import type { FieldError } from '../../shared/problems.ts';
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

/**
 * Why a JWKS could not be fetched, as the partner hears it. The remote end's answer (status,
 * body, what was wrong with its keys) is never repeated: from a service that connects where a
 * partner says, that would read out whatever answers there. Two reasons only: the address
 * rule refused the host (our rule, not the remote's answer), or anything else went wrong.
 * The logs get `internal` (server/shared/outbound.ts keeps production to public addresses).
 */
export class JwksFetchError extends Error {
  constructor(
    readonly reason: 'address-not-allowed' | 'not-fetched',
    /** What happened, for the logs only. */
    readonly internal: string,
  ) {
    super(
      reason === 'address-not-allowed'
        ? 'the JWKS could not be fetched: its host is not a public address (production fetches from public addresses only)'
        : `the JWKS could not be fetched: no acceptable JWKS came back (an HTTP 2xx answer within ${jwksFetchTimeoutMs / 1000} s, no redirect, of at most ${jwksMaxBytes / 1024} KiB of JSON with keys as jwks accepts them)`,
    );
  }
}

/**
 * GET the JWKS at `uri`: JSON, at most 64 KiB, within the timeout, no redirects, under the
 * address rule of server/shared/outbound.ts when `publicOnly` (production, as webhook deliveries).
 * `resolve` answers DNS instead of the system (tests).
 */
export async function fetchJwks(uri: string, options: { publicOnly: boolean; resolve?: Resolve }): Promise<Jwks> {
  const text = await get(uri, options);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new JwksFetchError('not-fetched', 'the answer is not JSON');
  }
  const errors = await jwksErrors(body, '');
  if (errors.length > 0) throw new JwksFetchError('not-fetched', `not an acceptable JWKS: ${errors.map((e) => `${e.pointer || '/'} ${e.detail}`).join('; ')}`);
  return { keys: (body as Jwks).keys };
}

function get(uri: string, options: { publicOnly: boolean; resolve?: Resolve | undefined }): Promise<string> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: JwksFetchError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      reject(error);
    };
    let request: http.ClientRequest | undefined;
    // One deadline for the whole exchange: connecting, the headers and every byte of the body.
    const timer = setTimeout(() => fail(new JwksFetchError('not-fetched', `no whole answer within ${jwksFetchTimeoutMs} ms`)), jwksFetchTimeoutMs);
    let agent: http.Agent;
    let target: URL;
    try {
      target = new URL(uri);
      if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new JwksFetchError('not-fetched', 'not an http(s) URL');
      // setJwtIssuer refuses http in production; this covers a row stored before that rule.
      if (options.publicOnly && target.protocol !== 'https:') throw new JwksFetchError('not-fetched', 'production fetches over https only');
      ({ agent } = connection(target, options));
    } catch (error) {
      if (error instanceof AddressNotAllowed) return fail(new JwksFetchError('address-not-allowed', error.message));
      if (error instanceof JwksFetchError) return fail(error);
      return fail(new JwksFetchError('not-fetched', 'not a valid URL'));
    }
    request = (target.protocol === 'https:' ? https : http).request(
      target,
      { method: 'GET', agent, headers: { Accept: 'application/jwk-set+json, application/json', 'User-Agent': 'ramp-jwks/1.0' } },
      (response) => {
        const status = response.statusCode ?? 0;
        // Not 2xx, redirects included: node:http never follows one.
        if (status < 200 || status > 299) return fail(new JwksFetchError('not-fetched', `HTTP ${status}`));
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > jwksMaxBytes) return fail(new JwksFetchError('not-fetched', `more than ${jwksMaxBytes} bytes`));
          chunks.push(chunk);
        });
        response.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(Buffer.concat(chunks).toString('utf8'));
        });
        response.on('error', (error) => fail(new JwksFetchError('not-fetched', `the answer broke off: ${error.message}`)));
        response.on('close', () => {
          if (!response.complete) fail(new JwksFetchError('not-fetched', 'the answer broke off'));
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      fail(error.code === 'EADDRNOTALLOWED' ? new JwksFetchError('address-not-allowed', error.message) : new JwksFetchError('not-fetched', `no answer: ${error.message}`)),
    );
    request.end();
  });
}
