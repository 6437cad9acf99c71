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
import type { InitArgs, ItemOf, ListInit, ListMethod, ListPath, PageOf, paths, TokenResponse } from './types.ts';

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
