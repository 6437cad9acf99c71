/**
 * The retry rules (v2.yaml, Errors) and the list iterators, on a scripted transport: exact
 * attempts, waits and bodies, with no real sleeping and no server.
 */
import { describe, expect, it } from 'vitest';
import { createRampClient, RampProblem, retryAfterSeconds, unwrap, type RetryOptions } from '../../client/index.ts';

const problem = (slug: string, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ type: `https://docs.ramp.example/errors/${slug}`, title: slug, status, detail: `${slug} happened`, instance: 'urn:uuid:x' }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A transport answering from a script, one entry per attempt (an Error is thrown as a connection failure). */
function scripted(...answers: (Response | Error | ((request: Request) => Response))[]) {
  const requests: { method: string; url: string; body: string }[] = [];
  const fetch = async (request: Request) => {
    requests.push({ method: request.method, url: request.url, body: await request.text() });
    const next = answers[Math.min(requests.length, answers.length) - 1]!;
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next(request) : next.clone();
  };
  return { requests, fetch };
}

function clientWith(transport: ReturnType<typeof scripted>, retry: RetryOptions = {}, baseUrl = 'https://api.test') {
  const waits: number[] = [];
  const ramp = createRampClient({ baseUrl, apiKey: 'api_sand:k:o', fetch: transport.fetch, retry: { random: () => 0, sleep: async (ms) => void waits.push(ms), ...retry } });
  return { ramp, waits };
}

const order = { id: 'o1', status: 'created' };
const createOrder = (ramp: ReturnType<typeof createRampClient>) =>
  ramp.POST('/organization/{organizationId}/order', { params: { path: { organizationId: 'org' } }, body: { quoteId: 'q1' } });

describe('retries', () => {
  it('retry internal-error with growing waits, and give up after maxRetries with the last problem', async () => {
    const transport = scripted(problem('internal-error', 500));
    const { ramp, waits } = clientWith(transport, { maxRetries: 4, baseDelayMs: 100 });
    const failure = await unwrap(ramp.GET('/orders')).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RampProblem);
    expect(transport.requests).toHaveLength(5);
    // random() = 0: half of each doubling step.
    expect(waits).toEqual([50, 100, 200, 400]);
  });

  it('cap one backoff at maxDelayMs', async () => {
    const transport = scripted(problem('service-unavailable', 503));
    const { ramp, waits } = clientWith(transport, { maxRetries: 5, baseDelayMs: 1000, maxDelayMs: 3000, random: () => 1 });
    await ramp.GET('/orders');
    expect(waits).toEqual([1000, 2000, 3000, 3000, 3000]);
  });

  it('send order creation again after a connection failure, with the same quoteId', async () => {
    const transport = scripted(new TypeError('fetch failed'), problem('service-unavailable', 503), json(order, 201));
    const { ramp } = clientWith(transport);
    expect(await unwrap(createOrder(ramp))).toEqual(order);
    expect(transport.requests.map((r) => r.body)).toEqual(Array(3).fill('{"quoteId":"q1"}'));
  });

  it('find order creation under a base URL with a path', async () => {
    const transport = scripted(new TypeError('fetch failed'), json(order, 200));
    const { ramp } = clientWith(transport, {}, 'https://gateway.test/ramp-api');
    expect(await unwrap(createOrder(ramp))).toEqual(order);
    expect(transport.requests[1]!.url).toBe('https://gateway.test/ramp-api/organization/org/order');
  });

  it('never repeat another POST after a connection failure (it may have been applied)', async () => {
    const transport = scripted(new TypeError('fetch failed'), json({}, 201));
    const { ramp } = clientWith(transport);
    await expect(ramp.POST('/webhook_subscription', { body: { url: 'https://p.example/h', eventType: 'orderUpdated' } })).rejects.toThrow('fetch failed');
    expect(transport.requests).toHaveLength(1);
  });

  it('repeat a GET after a connection failure', async () => {
    const transport = scripted(new TypeError('fetch failed'), json({ items: [], totalItems: 0, pageSize: 30, pageNumber: 0, totalPages: 0 }));
    const { ramp } = clientWith(transport);
    await unwrap(ramp.GET('/organizations'));
    expect(transport.requests).toHaveLength(2);
  });

  it('judge a body that is no problem by its status: v1 500 is retried, 501 and 4xx are not', async () => {
    for (const [answer, attempts] of [
      [json({ error: 'Internal server error' }, 500), 2],
      [json({ error: 'Bad gateway' }, 502), 2],
      [problem('not-implemented', 501), 1],
      [problem('quote-expired', 400), 1],
      [problem('order-not-cancelable', 409), 1],
      [problem('unsupported', 422), 1],
      [json({ error: 'Order not found' }, 404), 1],
    ] as const) {
      const transport = scripted(answer, json(order));
      const { ramp } = clientWith(transport);
      await ramp.GET('/ramp/order/{id}', { params: { path: { id: 'o1' } } });
      expect(transport.requests, `${answer.status}`).toHaveLength(attempts);
    }
  });

  it('wait a Retry-After given as an HTTP date, and return a 429 whose wait is too long', async () => {
    const soon = new Date(Date.now() + 5000).toUTCString();
    const dated = scripted(problem('rate-limit-exceeded', 429, { 'Retry-After': soon }), json(order));
    const first = clientWith(dated);
    await first.ramp.GET('/orders');
    expect(first.waits).toHaveLength(1);
    expect(first.waits[0]).toBeGreaterThanOrEqual(4000);
    expect(first.waits[0]).toBeLessThanOrEqual(6000);

    const long = scripted(problem('rate-limit-exceeded', 429, { 'Retry-After': '3600' }), json(order));
    const second = clientWith(long, { maxRetryAfterMs: 60_000 });
    const failure = await unwrap(second.ramp.GET('/orders')).catch((e: unknown) => e);
    expect(failure).toMatchObject({ slug: 'rate-limit-exceeded', retryAfter: 3600 });
    expect(long.requests).toHaveLength(1);
    expect(second.waits).toEqual([]);
  });

  it('send once when retry is false, and stop waiting when the request is aborted', async () => {
    const once = scripted(problem('internal-error', 500), json(order));
    const ramp = createRampClient({ baseUrl: 'https://api.test', apiKey: 'api_sand:k:o', fetch: once.fetch, retry: false });
    await ramp.GET('/orders');
    expect(once.requests).toHaveLength(1);

    // Aborted while the client waits before its second attempt.
    const aborted = scripted(problem('internal-error', 500), json(order));
    const controller = new AbortController();
    let sleeping!: () => void;
    const asleep = new Promise<void>((resolve) => (sleeping = resolve));
    const { ramp: slow } = clientWith(aborted, {
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason));
          sleeping();
        }),
    });
    const pending = slow.GET('/orders', { signal: controller.signal });
    await asleep;
    controller.abort(new Error('gave up'));
    await expect(pending).rejects.toThrow('gave up');
    expect(aborted.requests).toHaveLength(1);
  });

  it('stop before waiting when the request was aborted before the wait began', async () => {
    const transport = scripted(problem('internal-error', 500), json(order));
    const controller = new AbortController();
    const slept: number[] = [];
    const { ramp } = clientWith(transport, {
      // The abort lands after the answer was judged and before the wait: this sleep, which only
      // listens for 'abort', would never end if the client slept anyway.
      onRetry: () => controller.abort(new Error('gave up')),
      sleep: (ms, signal) => new Promise((_resolve, reject) => (slept.push(ms), signal?.addEventListener('abort', () => reject(signal.reason)))),
    });
    await expect(ramp.GET('/orders', { signal: controller.signal })).rejects.toThrow('gave up');
    expect(slept).toEqual([]);
    expect(transport.requests).toHaveLength(1);
  });

  it('parse Retry-After', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds(new Date(10_000).toUTCString(), 4_000)).toBe(6);
    expect(retryAfterSeconds('soon')).toBeUndefined();
    expect(retryAfterSeconds(null)).toBeUndefined();
  });
});

describe('list iterators', () => {
  const v2Page = (all: string[], number: number, size: number) =>
    json({ items: all.slice(number * size, number * size + size).map((id) => ({ organizationId: id })), totalItems: all.length, pageSize: size, pageNumber: number, totalPages: Math.ceil(all.length / size) });

  it('ask v2 pages by number until totalPages, keeping the other parameters', async () => {
    const all = ['a', 'b', 'c', 'd', 'e'];
    const transport = scripted((request) => {
      const query = new URL(request.url).searchParams;
      return v2Page(all, Number(query.get('pageNumber') ?? 0), Number(query.get('pageSize')));
    });
    const { ramp } = clientWith(transport);
    const ids = [];
    for await (const organization of ramp.paginate('GET', '/organizations', { params: { query: { pageSize: 2 } } })) ids.push(organization.organizationId);
    expect(ids).toEqual(all);
    expect(transport.requests.map((r) => new URL(r.url).search)).toEqual(['?pageSize=2', '?pageSize=2&pageNumber=1', '?pageSize=2&pageNumber=2']);
  });

  it('end at once on an empty v2 list', async () => {
    const transport = scripted(json({ items: [], totalItems: 0, pageSize: 30, pageNumber: 0, totalPages: 0 }));
    const { ramp } = clientWith(transport);
    const ids = [];
    for await (const organization of ramp.paginate('GET', '/organizations')) ids.push(organization);
    expect(ids).toEqual([]);
    expect(transport.requests).toHaveLength(1);
  });

  it('follow v1 next on the client base URL, resending the same filters', async () => {
    const pages = [
      { items: [{ id: '1' }, { id: '2' }], pageNumber: 0, pageSize: 2, totalItems: 3, totalPages: 2, next: 'https://public.ramp.example/ramp/orders?pageNumber=1&pageSize=2' },
      { items: [{ id: '3' }], pageNumber: 1, pageSize: 2, totalItems: 3, totalPages: 2, next: null },
    ];
    const transport = scripted(json(pages[0]), json(pages[1]));
    const { ramp } = clientWith(transport, {}, 'http://localhost:3000');
    const ids = [];
    const body = { pageSize: 2, filters: { fromDate: '2026-01-01T00:00:00Z' } };
    for await (const o of ramp.paginate('POST', '/ramp/orders', { body })) ids.push((o as { id: string }).id);
    expect(ids).toEqual(['1', '2', '3']);
    expect(transport.requests.map((r) => r.url)).toEqual(['http://localhost:3000/ramp/orders', 'http://localhost:3000/ramp/orders?pageNumber=1&pageSize=2']);
    expect(transport.requests.map((r) => JSON.parse(r.body))).toEqual([body, body]);
  });

  it('throw the problem of a failing page', async () => {
    const transport = scripted(v2Page(['a', 'b', 'c'], 0, 2), problem('not-found', 404));
    const { ramp } = clientWith(transport);
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const organization of ramp.paginate('GET', '/organizations', { params: { query: { pageSize: 2 } } })) seen.push(organization.organizationId);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a', 'b']);
    expect(failure).toMatchObject({ slug: 'not-found' });
  });
});
