/**
 * What every section of the world (world.ts) shares: the partner's API client, the options,
 * the pools (`add`), the requests that succeed (`request`), and the helpers that make keys,
 * signatures and request bodies the contract accepts.
 */
import { generateKeyPairSync, randomInt, randomUUID, sign, type KeyObject } from 'node:crypto';
import { exportJWK, SignJWT, type JWK } from 'jose';
import { loadContract } from '../../../server/shared/contract.ts';
import { makeClabe } from '../../../server/shared/clabe.ts';

export type Json = Record<string, any>;

/** One request an operation answers with a 2xx, as hooks.py gives it to Schemathesis. */
export interface ExampleRequest {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** The body's media type (the JSON one where an operation also takes a form). */
  mediaType?: string;
}

export interface WorldOptions {
  base: string;
  apiKey: string;
  partnerId: string;
  /** The loopback receivers every world subscription delivers to. */
  receivers: { v2: string; v1: string };
  /** How long the assertion pools must cover, from now. */
  coverSeconds: number;
  /** A JWKS served on loopback, for `PUT /jwt_issuer {jwksUri}`. */
  jwksUri: string;
  /** Has that JWKS serve this key (the partner's issuer's). */
  serveJwks: (key: JWK) => void;
}

/** A refused world-building step stops the run: the world is the precondition of every figure. */
export class Api {
  constructor(
    readonly base: string,
    readonly key: string,
  ) {}

  async call(method: string, path: string, body?: unknown, options: { key?: string | null; form?: boolean } = {}) {
    const headers: Record<string, string> = {};
    const key = options.key === undefined ? this.key : options.key;
    if (key !== null) headers.Authorization = key;
    let payload: string | undefined;
    if (body !== undefined && options.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(body as Record<string, string>).toString();
    } else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(this.base + path, { method, headers, body: payload });
    const text = await response.text();
    if (!response.ok) throw new Error(`world: ${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    let json: Json = {};
    try {
      json = text ? (JSON.parse(text) as Json) : {};
    } catch {
      // an HTML page (the launch)
    }
    return { json, headers: response.headers };
  }

  post = (path: string, body?: unknown, options?: { key?: string | null; form?: boolean }) => this.call('POST', path, body, options).then((r) => r.json);
  put = (path: string, body?: unknown, options?: { key?: string | null }) => this.call('PUT', path, body, options).then((r) => r.json);
  get = (path: string, options?: { key?: string | null }) => this.call('GET', path, undefined, options).then((r) => r.json);
}

/** What the sections share: the partner P's client and the two accumulators of the world. */
export interface Context {
  api: Api;
  options: WorldOptions;
  /** The partner P. */
  P: string;
  /** Dictionary name → values: the pools. */
  d: Record<string, string[]>;
  add: (name: string, ...values: string[]) => void;
  /** operationId → the world's requests that succeed. */
  examples: Record<string, ExampleRequest[]>;
  request: (operationId: string, ...requests: ExampleRequest[]) => void;
}

export function newContext(options: WorldOptions): Context {
  const api = new Api(options.base, options.apiKey);
  const P = options.partnerId;
  const d: Record<string, string[]> = {};
  const add = (name: string, ...values: string[]) => (d[name] ??= []).push(...values);
  const examples: Record<string, ExampleRequest[]> = {};
  const request = (operationId: string, ...requests: ExampleRequest[]) =>
    (examples[operationId] ??= []).push(...requests.map((r) => (r.body === undefined || r.mediaType ? r : { ...r, mediaType: 'application/json' })));
  return { api, options, P, d, add, examples, request };
}

let contract: ReturnType<typeof loadContract> | undefined;

/** A request body the contract gives as a named example (the first one when no name is given). */
export function example(operationId: string, name?: string): Json {
  const { document } = (contract ??= loadContract());
  for (const item of Object.values<Json>(document.paths)) {
    for (const operation of Object.values<Json>(item)) {
      if (operation?.operationId !== operationId) continue;
      const media = operation.requestBody.content['application/json'];
      const examples = media.examples as Record<string, { value: Json }>;
      return structuredClone((name ? examples[name] : Object.values(examples)[0])!.value);
    }
  }
  throw new Error(`no request example of ${operationId}`);
}

/** A valid CLABE of a customer's bank account (Banamex, 002), different each call. */
export const clabe = () => makeClabe('002', '010', String(randomInt(0, 100_000_000_000)).padStart(11, '0'));

/** A P-256 signer: its SEC1 public key and hex DER signatures (ECDSA over SHA-256). */
export function signer() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const uncompressed = `04${Buffer.from(jwk.x!, 'base64url').toString('hex')}${Buffer.from(jwk.y!, 'base64url').toString('hex')}`;
  return { publicKey: uncompressed, sign: (message: string) => sign('sha256', Buffer.from(message, 'utf8'), privateKey).toString('hex') };
}

/** A partner's JWT issuer: the key it signs with, registered inline with `PUT /jwt_issuer`. */
export async function issuer(api: Api, key: string, name: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = `fuzz-${randomUUID().slice(0, 8)}`;
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const iss = `https://auth.${name}.fuzz.example`;
  await api.put('/jwt_issuer', { issuer: iss, jwks: { keys: [publicJwk] } }, { key });
  return { iss, kid, privateKey, publicJwk };
}

/** A JWT of the issuer for one person, every scope, valid from `iat` (seconds) for 300 s. */
export async function assertion(signer: { iss: string; kid: string; privateKey: KeyObject }, audience: string, subject: string, iat: number) {
  return new SignJWT({ scope: 'onramp offramp swap kyc kyb', email: 'ana.fuzz@example.com', name: 'Ana Fuzz', jti: randomUUID() })
    .setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: 'JWT' })
    .setIssuer(signer.iss)
    .setSubject(subject)
    .setAudience(audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 300)
    .sign(signer.privateKey);
}

export const range = (n: number) => Array.from({ length: n }, (_, i) => i);
