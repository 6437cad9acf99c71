/**
 * `@ramp/client`: the partner SDK. An openapi-fetch client typed from the contract
 * (generated/types/ramp.ts), with the API key sent raw in `Authorization`, the retry rules of
 * the contract's Errors section (v2.yaml) under it, async iterators over every list, the token endpoint, and webhook
 * signature verification.
 *
 *   const ramp = createRampClient({ baseUrl: 'https://api.sandbox.ramp.example', apiKey });
 *   const { data, error, response } = await ramp.GET('/organization/{organizationId}/order/{id}', {
 *     params: { path: { organizationId, id } },
 *   });
 *   if (error) throw RampError.from(error, response);
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { publicOperations } from '../generated/types/public-operations.ts';
import { toRampError } from './errors.ts';
import { items, pages } from './pagination.ts';
import { retryingFetch, type RetryOptions } from './retry.ts';
import type { InitArgs, ItemOf, ListInit, ListMethod, ListPath, PageOf, paths, Schema, TokenResponse } from './types.ts';

export * from './errors.ts';
export * from './webhooks.ts';
export { backoffDelay, backoffSlugs, retryDecision, retryingFetch, type RetryDecision, type RetryEvent, type RetryOptions } from './retry.ts';
export type * from './types.ts';

export interface RampClientOptions {
  /** The API address: `https://api.sandbox.ramp.example`, or `http://localhost:3000` for the local sandbox. */
  baseUrl: string;
  /** `api_{env}:{key_id}:{org_id}`, sent raw in `Authorization` (never `Bearer`). Public lookups and sign-in need none. */
  apiKey?: string;
  /** The transport; `globalThis.fetch` by default (looked up on each call, so test doubles work). */
  fetch?: (input: Request, init?: RequestInit) => Promise<Response>;
  /** The retry rules of the contract's Errors section (see retry.ts); `false` sends every request once. */
  retry?: RetryOptions | false;
  /** Headers added to every request. */
  headers?: Record<string, string>;
}

export interface RampClient extends Client<paths> {
  /**
   * Every item of a list, fetching pages as the loop goes:
   * `for await (const order of ramp.paginate('GET', '/orders')) …`,
   * `ramp.paginate('POST', '/ramp/orders', { body: { filters: { fromDate } } })`.
   * A failing page throws its RampError.
   */
  paginate<M extends ListMethod, P extends ListPath<M>>(method: M, path: P, ...init: InitArgs<ListInit<M, P>>): AsyncGenerator<ItemOf<M, P>, void, undefined>;
  /** The page envelopes of a list, one by one (same arguments as `paginate`). */
  pages<M extends ListMethod, P extends ListPath<M>>(method: M, path: P, ...init: InitArgs<ListInit<M, P>>): AsyncGenerator<PageOf<M, P>, void, undefined>;
  /** `POST /auth/token` with the JWT bearer grant: a partner-signed JWT for tokens. Throws RampOAuthError. */
  exchangeJwt(assertion: string): Promise<TokenResponse>;
  /** `POST /auth/token` with a refresh token (which it consumes: keep the new one). Throws RampOAuthError. */
  refresh(refreshToken: string): Promise<TokenResponse>;
}

const jwtBearer = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * Whether an operation takes no API key (`security: []` in the contract: sign-in, lookups,
 * the deprecated onboarding; and the browser pages, authenticated by their session cookie). The token endpoint refuses a key
 * (`invalid_request`), so a key never leaks into sign-in code.
 */
export function isPublicOperation(method: string, schemaPath: string): boolean {
  return publicOperations[schemaPath]?.includes(method.toUpperCase()) ?? false;
}

/** Sets `Authorization: <apiKey>` on every request that needs the key and has none. */
export function apiKeyMiddleware(apiKey: string): Middleware {
  if (/^bearer\s/i.test(apiKey)) throw new TypeError('Pass the raw API key (api_sand:…): a Bearer prefix is refused with 401.');
  return {
    onRequest({ request, schemaPath }) {
      if (isPublicOperation(request.method, schemaPath) || request.headers.has('Authorization')) return undefined;
      request.headers.set('Authorization', apiKey);
      return request;
    },
  };
}

export function createRampClient(options: RampClientOptions): RampClient {
  const transport = options.fetch ?? ((input: Request, init?: RequestInit) => globalThis.fetch(input, init));
  const fetch = options.retry === false ? transport : retryingFetch(transport, options.baseUrl, options.retry ?? {});
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch, ...(options.headers ? { headers: options.headers } : {}) });
  if (options.apiKey) client.use(apiKeyMiddleware(options.apiKey));

  async function token(body: Record<string, string>): Promise<TokenResponse> {
    const { data, error, response } = await client.POST('/auth/token', {
      body: body as never,
      // RFC 6749 section 4.1.3: the token endpoint takes form fields.
      bodySerializer: (fields) => new URLSearchParams(fields as Record<string, string>).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    if (!response.ok) throw toRampError(error, response);
    return data as TokenResponse;
  }

  return Object.assign(client, {
    paginate: ((method: ListMethod, path: never, ...init: never[]) => items(client, method, path, ...init)) as RampClient['paginate'],
    pages: ((method: ListMethod, path: never, ...init: never[]) => pages(client, method, path, ...init)) as RampClient['pages'],
    exchangeJwt: (assertion: string) => token({ grant_type: jwtBearer, assertion }),
    refresh: (refreshToken: string) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }),
  });
}

export interface SandboxPartnerOptions extends Omit<RampClientOptions, 'apiKey'> {
  /** Any sandbox key: the new partner is independent of it (never its customer). */
  apiKey: string;
  /** The new partner's name; `Sandbox partner` when absent. */
  displayName?: string;
  /** Start the new partner's clock frozen at this instant (ISO 8601); absent: running on real time. */
  frozenAt?: string;
}

export interface SandboxPartner {
  id: string;
  /** Its sandbox API key, shown once by the service. */
  apiKey: string;
  /** Its clock as it was made. */
  clock: Schema<'SandboxClock'>;
  /** A client acting with the partner's own key (same options as the maker's otherwise). */
  client: RampClient;
  /** Deletes the partner with everything it owns; one already gone (deleted, expired) is done too. */
  delete(): Promise<void>;
}

/**
 * An isolated sandbox partner for a test run (`POST /sandbox/partners`): its own key, data,
 * event feed and clock, so parallel runs never see each other. Made in `beforeAll`, deleted in
 * `afterAll` (`partner.delete()`); one left behind is deleted by the sandbox after a day unused.
 * Throws the RampError of a refusal (409 `conflict` at the sandbox's cap, 403 in production).
 */
export async function createSandboxPartner(options: SandboxPartnerOptions): Promise<SandboxPartner> {
  const { displayName, frozenAt, ...clientOptions } = options;
  const maker = createRampClient(clientOptions);
  const body = { ...(displayName !== undefined ? { displayName } : {}), ...(frozenAt !== undefined ? { frozenAt } : {}) };
  const { data, error, response } = await maker.POST('/sandbox/partners', { body });
  if (!response.ok || !data) throw toRampError(error, response);
  const client = createRampClient({ ...clientOptions, apiKey: data.apiKey });
  return {
    id: data.id,
    apiKey: data.apiKey,
    clock: data.clock,
    client,
    async delete() {
      const { error: refused, response: answer } = await client.DELETE('/sandbox/partners/{partnerId}', { params: { path: { partnerId: data.id } } });
      // A partner already deleted or expired takes its key with it: the key is then 401.
      if (answer.ok || answer.status === 404 || answer.status === 401) return;
      throw toRampError(refused, answer);
    },
  };
}
