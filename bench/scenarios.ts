/**
 * The measured requests. Every target gets the same requests; the peers answer the bytes
 * that our validated server answered to them (captured once, before the runs).
 */
import type { LoadRequest } from './lib.ts';
import type { Fixture } from './peers/fixtures.ts';

/** What the scenarios need to know about the data set. */
export interface World {
  partnerId: string;
  key: string;
  /** Orders to read, with their owner (the partner or one of its customers). */
  orders: { organizationId: string; id: string }[];
  /** A customer organization of the partner that owns orders. */
  customerId?: string;
}

export interface Scenario {
  id: string;
  label: string;
  /** Reads are held to the p99 target. */
  read: boolean;
  /** Reads stored orders: measured only when the data set could be made. */
  needsOrders?: boolean;
  requests(world: World): LoadRequest[];
}

/** A walletAddress and amount the sandbox accepts for an onramp (≤ 500 MXN). */
export const onrampQuote = {
  type: 'onramp',
  sourceAsset: 'MXN',
  targetAsset: 'USDC',
  sourceAmount: '100.00',
  rail: 'spei',
  walletAddress: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
};

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;

const auth = (world: World) => ({ authorization: world.key });

export const lookupTokenCosts: Scenario = {
  id: 'lookup',
  label: 'GET /lookup/tokens/cost',
  read: true,
  requests: () => [{ path: '/lookup/tokens/cost' }],
};

export const getOrder: Scenario = {
  id: 'getOrder',
  label: 'GET /organization/{id}/order/{id}',
  read: true,
  needsOrders: true,
  requests: (world) => [
    {
      path: `/organization/${world.orders[0]!.organizationId}/order/${world.orders[0]!.id}`,
      headers: auth(world),
      // A different stored order each time, so the cache does not hold only one.
      setupRequest: (request) => {
        const order = pick(world.orders);
        request.path = `/organization/${order.organizationId}/order/${order.id}`;
        return request;
      },
    },
  ],
};

export const listOrders: Scenario = {
  id: 'listOrders',
  label: 'GET /orders?pageSize=30',
  read: true,
  needsOrders: true,
  requests: (world) => [{ path: '/orders?pageSize=30', headers: auth(world) }],
};

export const quoteAndOrder: Scenario = {
  id: 'quoteOrder',
  label: 'POST /organization/{id}/quote + POST …/order',
  read: false,
  requests: (world) => [
    {
      method: 'POST',
      path: `/organization/${world.partnerId}/quote`,
      headers: auth(world),
      body: JSON.stringify(onrampQuote),
      onResponse: (status, body, context) => {
        context.quoteId = status === 201 ? (JSON.parse(body) as { quoteId: string }).quoteId : undefined;
      },
    },
    {
      method: 'POST',
      path: `/organization/${world.partnerId}/order`,
      headers: auth(world),
      body: '{}',
      // Orders the quote just made; a failed quote starts the pair again.
      setupRequest: (request, context) => {
        if (!context.quoteId) return undefined;
        request.body = JSON.stringify({ quoteId: context.quoteId });
        return request;
      },
    },
  ],
};

export const throughputScenarios = [lookupTokenCosts, getOrder, listOrders, quoteAndOrder];

/** One pass of a scenario's requests against `url`, as a client would make them. */
export async function capture(url: string, requests: LoadRequest[]): Promise<{ fixtures: Fixture[]; statuses: number[] }> {
  const context: Record<string, unknown> = {};
  const fixtures: Fixture[] = [];
  const statuses: number[] = [];
  for (const r of requests) {
    const request: { path: string; body?: string } = { path: r.path, ...(r.body !== undefined ? { body: r.body } : {}) };
    const prepared = (r.setupRequest ? r.setupRequest(request, context) : request) as typeof request | undefined;
    if (!prepared) throw new Error(`${r.method ?? 'GET'} ${r.path}: the previous request failed`);
    const response = await fetch(url + prepared.path, {
      method: r.method ?? 'GET',
      headers: { ...(prepared.body !== undefined ? { 'content-type': 'application/json' } : {}), ...r.headers },
      ...(prepared.body !== undefined ? { body: prepared.body } : {}),
    });
    const body = await response.text();
    statuses.push(response.status);
    r.onResponse?.(response.status, body, context);
    fixtures.push({
      method: r.method ?? 'GET',
      path: templatePath(prepared.path),
      status: response.status,
      contentType: response.headers.get('content-type') ?? 'application/json',
      body,
    });
  }
  return { fixtures, statuses };
}

/** `/organization/<uuid>/order/<uuid>?x` → `/organization/{p1}/order/{p2}`: the route a peer serves. */
function templatePath(path: string) {
  let n = 0;
  return path.split('?', 1)[0]!.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, () => `{p${++n}}`);
}
