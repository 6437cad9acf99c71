/**
 * Every list of the contract as an async iterator.
 *
 *   v2 (`GET /orders`, `GET /organizations`, …): `pageNumber` / `pageSize` query
 *   parameters, from page 0 until `totalPages` is reached (or a page comes back empty).
 *   v1 (`POST /ramp/orders`, `GET /ramp/customers`, …): the same body (filters) on every
 *   request, following `next` until it is null. `next` is an absolute URL of the service; only
 *   its `pageNumber` and `pageSize` are taken, so a client behind a proxy stays on its own
 *   base URL.
 */
import type { Client } from 'openapi-fetch';
import { toRampError } from './errors.ts';
import type { InitArgs, ItemOf, ListInit, ListMethod, ListPath, PageOf, paths } from './types.ts';

type AnyInit = { params?: { query?: Record<string, unknown>; path?: Record<string, unknown> }; body?: unknown; [key: string]: unknown };
type Page = { items: unknown[]; pageNumber: number; pageSize: number; totalPages: number; next?: string | null };

export async function* pages<M extends ListMethod, P extends ListPath<M>>(
  client: Client<paths>,
  method: M,
  path: P,
  ...[init]: InitArgs<ListInit<M, P>>
): AsyncGenerator<PageOf<M, P>, void, undefined> {
  const base = (init ?? {}) as AnyInit;
  let query: Record<string, unknown> = { ...base.params?.query };
  const request = client.request as (m: string, p: string, i: AnyInit) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  for (;;) {
    const { data, error, response } = await request(method, path, { ...base, params: { ...base.params, query } });
    if (!response.ok) throw toRampError(error, response);
    const page = data as Page;
    // A server that answers another page than the one asked would make the loop endless.
    if (typeof query.pageNumber === 'number' && page.pageNumber !== query.pageNumber) {
      throw new Error(`${method} ${path}: asked for page ${query.pageNumber}, the server answered page ${page.pageNumber}`);
    }
    yield page as PageOf<M, P>;
    if (page.items.length === 0) return;
    if ('next' in page) {
      // v1: follow `next`.
      if (!page.next) return;
      const next = new URL(page.next).searchParams;
      query = { ...query, pageNumber: Number(next.get('pageNumber') ?? page.pageNumber + 1) };
      if (next.has('pageSize')) query.pageSize = Number(next.get('pageSize'));
    } else {
      if (page.pageNumber + 1 >= page.totalPages) return;
      query = { ...query, pageNumber: page.pageNumber + 1 };
    }
  }
}

export async function* items<M extends ListMethod, P extends ListPath<M>>(
  client: Client<paths>,
  method: M,
  path: P,
  ...init: InitArgs<ListInit<M, P>>
): AsyncGenerator<ItemOf<M, P>, void, undefined> {
  for await (const page of pages(client, method, path, ...init)) {
    for (const item of (page as Page).items) yield item as ItemOf<M, P>;
  }
}
