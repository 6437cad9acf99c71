/**
 * The contract's types, generated from generated/openapi/ramp.yaml by openapi-typescript
 * (`npm run generate`), and the shapes the client derives from them.
 */
import type { FetchOptions } from 'openapi-fetch';
import type { components, operations, paths } from '../generated/types/ramp.ts';

export type { components, operations, paths };

/** Every schema of the contract by name: `Schema<'Order'>`, `Schema<'WebhookSubscription'>`. */
export type Schemas = components['schemas'];
export type Schema<Name extends keyof Schemas> = Schemas[Name];

export type TokenResponse = Schema<'OAuthTokenResponse'>;

/** HTTP methods a list can be read with: v2 and `GET /ramp/customers` by GET, v1 lists by POST. */
export type ListMethod = 'GET' | 'POST';

type Operation<P extends keyof paths, M extends ListMethod> = paths[P][Lowercase<M>];
type OkJson<O> = O extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;
type IsPage<Body> = [Body] extends [never] ? false : Body extends { items: unknown[]; totalPages: number } ? true : false;

/** The paths whose `method` answers a page envelope (`items`, `pageNumber`, `totalPages`, …). */
export type ListPath<M extends ListMethod> = {
  [P in keyof paths]: IsPage<OkJson<Operation<P, M>>> extends true ? P : never;
}[keyof paths];

export type PageOf<M extends ListMethod, P extends ListPath<M>> = OkJson<Operation<P, M>>;
export type ItemOf<M extends ListMethod, P extends ListPath<M>> = PageOf<M, P> extends { items: (infer Item)[] } ? Item : never;

/** The request options of a list operation: path and filter parameters, and for v1 the body. */
export type ListInit<M extends ListMethod, P extends ListPath<M>> = FetchOptions<Operation<P, M>>;

type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
/** `init` is optional exactly when the operation has nothing required (no path parameter). */
export type InitArgs<Init> = [RequiredKeys<Init>] extends [never] ? [init?: Init] : [init: Init];
