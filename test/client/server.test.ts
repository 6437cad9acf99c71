/**
 * The client against the real sandbox server (startTestServer): what the mock cannot show,
 * because it needs state. Pages that really advance, a subscription created and found again,
 * problems the server makes, the token endpoint's OAuth errors, and no repeat of a final 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRampClient, RampApiError, RampOAuthError, RampProblem, unwrap, type RampClient } from '../../client/index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('the client against the sandbox server', () => {
  let server: TestServer;
  let ramp: RampClient;
  const sent: string[] = [];
  const customers: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    ramp = createRampClient({
      baseUrl: server.url,
      apiKey: server.key,
      retry: { sleep: async () => {} },
      fetch: (request) => {
        sent.push(`${request.method} ${new URL(request.url).pathname}`);
        return fetch(request);
      },
    });
    for (let i = 0; i < 5; i++) {
      const created = await unwrap(ramp.POST('/ramp/organization', { body: { displayName: `Customer ${i}`, type: 'personal' } }));
      customers.push(created.organizationId);
    }
  });
  afterAll(() => server?.close());

  it('walks every page of a v2 list, two items at a time', async () => {
    const pages = [];
    for await (const page of ramp.pages('GET', '/organizations', { params: { query: { pageSize: 2 } } })) pages.push(page);
    expect(pages.map((p) => p.pageNumber)).toEqual([0, 1, 2]);
    const ids = pages.flatMap((p) => p.items.map((o) => o.organizationId));
    expect(new Set(ids)).toEqual(new Set(customers));
  });

  it('walks every page of a v1 list by following next', async () => {
    const seen: string[] = [];
    for await (const customer of ramp.paginate('POST', '/ramp/customers', { body: { pageSize: 2 } })) seen.push(customer.customerId);
    expect(seen).toEqual(customers); // v1 lists are oldest first
    expect(sent.filter((s) => s === 'POST /ramp/customers')).toHaveLength(3);
  });

  it('creates a webhook subscription and reads it back, and a duplicate is a conflict problem', async () => {
    const body = { url: 'https://partner.example/hooks/ramp', eventType: 'orderUpdated' } as const;
    const created = await unwrap(ramp.POST('/webhook_subscription', { body }));
    expect(created.secret).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    const listed = [];
    for await (const subscription of ramp.paginate('GET', '/webhook_subscriptions')) listed.push(subscription);
    expect(listed.map((s) => s.id)).toContain(created.id);
    const before = sent.length;
    const duplicate = await unwrap(ramp.POST('/webhook_subscription', { body })).catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(RampProblem);
    expect(duplicate).toMatchObject({ slug: 'conflict', status: 409 });
    expect(sent.length - before).toBe(1); // a 4xx other than 422 quote-unavailable and 429 is never repeated
  });

  it('reports a validation error with its pointers, and an unknown order as not-found', async () => {
    const invalid = await unwrap(ramp.POST('/webhook_subscription', { body: { url: 'https://partner.example/x' } as never })).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ slug: 'validation-error', status: 400 });
    expect((invalid as RampProblem).errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer: '/eventType' })]));
    const missing = await unwrap(
      ramp.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId: server.partnerId, id: crypto.randomUUID() } } }),
    ).catch((e: unknown) => e);
    expect(missing).toMatchObject({ slug: 'not-found', status: 404, title: 'Not found' });
    expect((missing as RampProblem).instance).toEqual(expect.any(String));
  });

  it('reads public prices without the key, and a lookup error as RampApiError', async () => {
    const costs = await unwrap(ramp.GET('/lookup/tokens/cost'));
    expect(Object.keys(costs).length).toBeGreaterThan(0);
    const unknown = await unwrap(ramp.GET('/lookup/tokens/cost/{identifier}', { params: { path: { identifier: 'NOPE' } } })).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(RampApiError);
    expect(unknown).toMatchObject({ status: 404 });
  });

  it('turns a refused sign-in into RampOAuthError', async () => {
    const refused = await ramp.exchangeJwt('not.a.jwt').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RampOAuthError);
    expect((refused as RampOAuthError).error).toBe('invalid_grant');
    const unknownRefresh = await ramp.refresh('rt_unknown').catch((e: unknown) => e);
    expect(unknownRefresh).toMatchObject({ error: 'invalid_grant', status: 400 });
  });
  it('expires a quote in a test without waiting five minutes (client/README.md)', async () => {
    const organizationId = server.partnerId;
    const walletAddress = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
    await unwrap(ramp.POST('/organization/{organizationId}/wallet', { params: { path: { organizationId } }, body: { custody: 'external', address: walletAddress, blockchain: 'solana' } }));
    await unwrap(ramp.PUT('/sandbox/clock', { body: { frozen: true } }));
    try {
      const quote = await unwrap(ramp.POST('/organization/{organizationId}/quote', {
        params: { path: { organizationId } },
        body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress },
      }));
      const { counts, transitions } = await unwrap(ramp.POST('/sandbox/clock/advance', { body: { by: 'PT5M1S' } }));
      expect(counts.quoteExpired).toBe(1);
      expect(transitions).toEqual([{ kind: 'quoteExpired', id: quote.quoteId, organizationId, dueAt: quote.expiresAt }]);
      const late = await unwrap(ramp.POST('/organization/{organizationId}/order', { params: { path: { organizationId } }, body: { quoteId: quote.quoteId } })).catch((e: unknown) => e);
      expect(late).toBeInstanceOf(RampProblem);
      expect((late as RampProblem).slug).toBe('quote-expired');
    } finally {
      await unwrap(ramp.PUT('/sandbox/clock', { body: { frozen: false } }));
    }
  });
});
