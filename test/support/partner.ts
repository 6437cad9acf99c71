/**
 * A partner that signs its users in: its own key pair, a JWKS, and JWTs signed with its key
 * (by default valid for the test server: registered issuer, right audience, fresh jti).
 */
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { Schema } from '../../client/index.ts';
import { expectStatus, type RawAnswer, type RequestBody } from './api.ts';
import type { TestServer } from './server.ts';

export const jwtBearer = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface PartnerKey {
  alg: 'ES256' | 'RS256' | 'EdDSA';
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function newKey(alg: PartnerKey['alg'] = 'ES256', kid = `key-${randomUUID().slice(0, 8)}`): Promise<PartnerKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, use: 'sig', alg };
  return { alg, kid, privateKey, publicJwk };
}

export type Claims = Record<string, unknown>;

export class Partner {
  readonly issuer = `https://auth.partner-${randomUUID().slice(0, 8)}.example`;
  constructor(
    readonly server: TestServer,
    public key: PartnerKey,
    /** The partner's API key (defaults to the test server's partner). */
    readonly apiKey: string = server.key,
  ) {}

  static async create(server: TestServer, apiKey?: string) {
    return new Partner(server, await newKey(), apiKey);
  }

  get audience() {
    return `${this.server.services.config.baseUrl}/auth/token`;
  }

  /** Registers the issuer with the key inline (`putJwtIssuer`), and returns it as the service answers. */
  async register(keys: JWK[] = [this.key.publicJwk]): Promise<Schema<'JwtIssuer'>> {
    return expectStatus(await this.server.as(this.apiKey).PUT('/jwt_issuer', { body: { issuer: this.issuer, jwks: { keys: keys.map(contractJwk) } } }), 200);
  }

  /** Claims a valid sign-in carries, now by the server's clock. */
  claims(overrides: Claims = {}): Claims {
    const now = Math.floor(this.server.services.clock.now().getTime() / 1000);
    const claims: Claims = {
      iss: this.issuer,
      sub: randomUUID(),
      aud: this.audience,
      scope: 'kyc onramp',
      jti: randomUUID(),
      iat: now,
      exp: now + 120,
      email: 'ana.lopez@example.com',
      name: 'Ana López',
      ...overrides,
    };
    for (const [k, v] of Object.entries(claims)) if (v === undefined) delete claims[k];
    return claims;
  }

  /** A JWT signed with the partner's key (or `key`); `undefined` in overrides drops a claim. */
  async sign(overrides: Claims = {}, options: { key?: PartnerKey; header?: Record<string, unknown> } = {}): Promise<string> {
    const key = options.key ?? this.key;
    return new SignJWT(this.claims(overrides))
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...options.header } as never)
      .sign(key.privateKey);
  }
}

/**
 * A public JWK as the contract's `Jwk` holds it: jose types `kty` and `use` as any string, the
 * contract names the ones it takes, so they are checked here rather than cast.
 */
export function contractJwk(jwk: JWK): Schema<'Jwk'> {
  const { kty, use, ...rest } = jwk;
  if (!isContractKty(kty)) throw new Error(`a JWK of kty ${kty} is not one the contract takes`);
  if (use !== undefined && use !== 'sig') throw new Error(`a JWK for use ${use} is not one the contract takes`);
  return { ...rest, kty, ...(use === undefined ? {} : { use: 'sig' as const }) };
}

const isContractKty = (kty: string | undefined): kty is Schema<'Jwk'>['kty'] => kty === 'RSA' || kty === 'EC' || kty === 'OKP';

/**
 * `POST /auth/token` (`createToken`) through the typed client, form-urlencoded as RFC 6749
 * section 4.1.3 says (or JSON, which the contract also takes). Its answer is the token
 * response or the OAuth error, as the contract types them.
 */
export function requestToken(server: TestServer, body: RequestBody<'createToken'>, options: { json?: boolean } = {}) {
  const api = server.as(null);
  if (options.json) return api.POST('/auth/token', { body });
  return api.POST('/auth/token', {
    body,
    bodySerializer: (fields) => new URLSearchParams(Object.entries(fields)).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
}

/** A body as `application/x-www-form-urlencoded`, as a browser posts a form. */
const formEncoded = (fields: object) => new URLSearchParams(Object.entries(fields).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])).toString();

/**
 * `POST /auth/launch` (`launchSession`) as a browser posts it, a form, through the typed
 * client: its answer is the HTML page, as text (`data` when 200, `error` otherwise).
 */
export function launchSession(server: TestServer, body: RequestBody<'launchSession'>, o: { headers?: Record<string, string>; origin?: string } = {}) {
  return server.as(null).POST('/auth/launch', {
    params: { query: o.origin === undefined ? {} : { origin: o.origin } },
    body,
    bodySerializer: formEncoded,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...o.headers },
    parseAs: 'text',
  });
}

/**
 * A page answered to the typed client with `parseAs: 'text'` (a launch, the `GET /auth/launch`
 * page, an app page), as a browser gets it: the response, its status and headers, and its HTML
 * as `text_` whatever the status (openapi-fetch's `data` for a 2xx, `error` otherwise). The
 * shape of a `sendRaw` answer, so the same checks read a page of either.
 */
export function htmlPage(answer: { data?: string; error?: string; response: Response }): Response & { text_: string } {
  return Object.assign(answer.response, { text_: answer.data ?? answer.error ?? '' });
}

/**
 * What a program reads on a sign-in error page (http/pages.ts `launchErrorPage`): the code in
 * the `oauth-error` meta tag and in `#error`, and `#error_description`.
 */
export const errorPageParts = (html: string) => ({
  meta: /<meta name="oauth-error" content="([a-z_]+)">/.exec(html)?.[1],
  error: /<code id="error">([^<]*)<\/code>/.exec(html)?.[1],
  description: /<span id="error_description">([^<]*)<\/span>/.exec(html)?.[1],
});

/** The session cookie a launch set (`ramp_session=…`), as a browser sends it back. */
export const sessionCookie = (answer: { response: Response }) => answer.response.headers.get('set-cookie')?.split(';')[0];

/** A hand-made JWT with any header and signature (for `alg: none`, HMAC, …). */
export function rawJwt(header: Record<string, unknown>, claims: Claims, signature: Buffer | string = ''): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const sig = typeof signature === 'string' ? signature : signature.toString('base64url');
  return `${part(header)}.${part(claims)}.${sig}`;
}

