/**
 * The client against `prism mock generated/openapi/ramp.yaml`: the documents alone, no
 * server. Prism validates every request the client sends (a malformed one is answered 422,
 * a missing key 401) and answers from the documents' examples; `Prefer: code=…` picks an
 * error response, so each error shape is decoded from what the contract says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRampClient, isPublicOperation, RampApiError, RampError, RampOAuthError, RampProblem, unwrap, type RampClientOptions } from '../../client/index.ts';
import { loadBundle, operationsOf } from '../support/documents.ts';
import { startPrism, type RunningPrism } from '../contract/prism.ts';

const apiKey = 'api_sand:7f3c9a2b41d84e6f:8d0e7c2a-4b61-4f3e-9a57-1c2d3e4f5a6b';
const organizationId = '8d0e7c2a-4b61-4f3e-9a57-1c2d3e4f5a6b';
const orderId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** A transport that records what the client sent and can add headers to the nth attempt. */
function recording(prefer?: (attempt: number, request: Request) => string | undefined) {
  const sent: Request[] = [];
  const fetch = async (request: Request) => {
    sent.push(request.clone());
    const value = prefer?.(sent.length, request);
    const outgoing = new Request(request);
    if (value) outgoing.headers.set('Prefer', value);
    return globalThis.fetch(outgoing);
  };
  return { sent, fetch };
}

describe('the client against Prism mock (the documents alone)', () => {
  let prism: RunningPrism;
  const client = (options: Partial<RampClientOptions> = {}) => createRampClient({ baseUrl: prism.url, apiKey, retry: { sleep: async () => {} }, ...options });

  beforeAll(async () => {
    prism = await startPrism('mock');
  }, 120_000);
  afterAll(() => prism?.close());

  it('reads an order, typed, with the raw key in Authorization', async () => {
    const { sent, fetch } = recording();
    const ramp = client({ fetch });
    const { data, error, response } = await ramp.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId, id: orderId } } });
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.id).toBeTypeOf('string');
    expect(['created', 'funded', 'claimable', 'completed', 'failed', 'canceled', 'refunded']).toContain(data?.status);
    expect(sent[0]!.headers.get('Authorization')).toBe(apiKey);
  });

  it('is refused by the contract without a key (401 unauthorized, as a RampProblem)', async () => {
    const ramp = client({ apiKey: undefined });
    const { error, response } = await ramp.GET('/orders');
    const problem = RampError.from(error, response);
    expect(problem).toBeInstanceOf(RampProblem);
    expect(problem).toMatchObject({ status: 401, slug: 'unauthorized' });
  });

  it('refuses a Bearer-prefixed key before sending anything', () => {
    expect(() => client({ apiKey: `Bearer ${apiKey}` })).toThrow(/raw API key/);
  });

  it('sends no key exactly to the operations the contract makes public', async () => {
    const document = loadBundle('ramp');
    for (const { method, path, operation } of operationsOf(document).filter((o) => !o.webhook)) {
      const security = operation.security ?? document.security ?? [];
      // Public: no API key, which the app pages' session cookie (AppSession) is not.
      const isPublic = security.length === 0 || !security.every((s: object) => 'ApiKey' in s);
      expect(isPublicOperation(method, path), `${operation.operationId} ${path}`).toBe(isPublic);
    }
    const { sent, fetch } = recording();
    const ramp = client({ fetch });
    await unwrap(ramp.GET('/lookup/tokens/cost'));
    expect(sent[0]!.headers.has('Authorization')).toBe(false);
  });

  it('decodes a not-found problem into slug, status, title, detail and instance', async () => {
    const ramp = client();
    const { error, response } = await ramp.GET('/organization/{organizationId}/order/{id}', {
      params: { path: { organizationId, id: orderId } },
      headers: { Prefer: 'code=404' },
    });
    const problem = RampError.from(error, response) as RampProblem;
    expect(problem).toBeInstanceOf(RampProblem);
    expect(problem.slug).toBe('not-found');
    expect(problem.type).toBe('https://docs.ramp.example/errors/not-found');
    expect(problem).toMatchObject({ status: 404, title: 'Not found' });
    expect(problem.detail).not.toBe('');
    expect(problem.instance).toMatch(/^urn:uuid:/);
  });

  it('carries the errors of a validation-error problem', async () => {
    const ramp = client();
    const failure = await unwrap(
      ramp.POST('/webhook_subscription', {
        body: { url: 'https://partner.example/webhooks/ramp', eventType: 'orderUpdated' },
        headers: { Prefer: 'code=400, example=ValidationError' },
      }),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RampProblem);
    expect((failure as RampProblem).slug).toBe('validation-error');
    expect((failure as RampProblem).errors).toEqual([{ pointer: expect.stringMatching(/^\//), detail: expect.any(String) }]);
  });

  it('carries required and missing of a registration-info-required problem', async () => {
    const ramp = client();
    const failure = await unwrap(
      ramp.POST('/organization/{organizationId}/payment_account', {
        params: { path: { organizationId } },
        body: { kind: 'bankAccount', rail: 'spei', accountDetails: { clabe: '002010077777777771' }, registrationInfo: { accountHolderName: 'María Gómez Martínez', taxId: 'GOMM900101AB3' } },
        headers: { Prefer: 'code=422, example=RegistrationInfoRequired' },
      }),
    ).catch((error: unknown) => error);
    expect(failure).toMatchObject({ slug: 'registration-info-required', status: 422 });
    expect((failure as RampProblem).required).toContain('/registrationInfo/accountHolderName');
    expect((failure as RampProblem).missing).toEqual(expect.any(Array));
  });

  it('decodes v1 and lookup errors as RampApiError', async () => {
    const ramp = client();
    const v1 = await unwrap(ramp.POST('/ramp/orders', { body: {}, headers: { Prefer: 'code=400' } })).catch((e: unknown) => e);
    expect(v1).toBeInstanceOf(RampApiError);
    expect(v1).toMatchObject({ status: 400, error: expect.any(String) });
    const lookup = await unwrap(ramp.GET('/lookup/tokens/cost/{identifier}', { params: { path: { identifier: 'NOPE' } }, headers: { Prefer: 'code=404' } })).catch((e: unknown) => e);
    expect(lookup).toBeInstanceOf(RampApiError);
    expect(lookup).toMatchObject({ status: 404, error: expect.any(String) });
  });

  it('exchanges a JWT and a refresh token at the token endpoint, form-encoded and without the key', async () => {
    const { sent, fetch } = recording();
    const ramp = client({ fetch });
    // Prism checks the form body against OAuthTokenRequest: a wrong one would be 422.
    const tokens = await ramp.exchangeJwt('eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln');
    expect(tokens).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String), refresh_token: expect.any(String) });
    const refreshed = await ramp.refresh(tokens.refresh_token);
    expect(refreshed.access_token).toEqual(expect.any(String));
    expect(sent.map((r) => r.headers.get('Content-Type'))).toEqual(['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded']);
    expect(sent.every((r) => !r.headers.has('Authorization'))).toBe(true);
    expect(new URLSearchParams(await sent[1]!.text()).get('grant_type')).toBe('refresh_token');
  });

  it('throws RampOAuthError with the OAuth code when the grant is refused', async () => {
    const { fetch } = recording(() => 'code=400');
    const failure = await client({ fetch }).exchangeJwt('not-a-jwt').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RampOAuthError);
    expect((failure as RampOAuthError).error).toMatch(/^(invalid_request|invalid_grant|invalid_scope|unsupported_grant_type)$/);
    expect((failure as RampOAuthError).errorDescription).not.toBe('');
  });

  it('waits Retry-After on rate-limit-exceeded, then succeeds', async () => {
    const { sent, fetch } = recording((attempt) => (attempt === 1 ? 'code=429' : undefined));
    const waits: number[] = [];
    const ramp = client({ fetch, retry: { sleep: async (ms) => { waits.push(ms); } } });
    const page = await unwrap(ramp.GET('/organizations'));
    expect(page.items).toEqual(expect.any(Array));
    expect(sent).toHaveLength(2);
    // The documented example of Retry-After is 2 seconds.
    expect(waits).toEqual([2000]);
  });

  it('backs off on service-unavailable, bounded, and then gives the problem', async () => {
    const { sent, fetch } = recording(() => 'code=503');
    const waits: number[] = [];
    const ramp = client({ fetch, retry: { maxRetries: 3, baseDelayMs: 100, random: () => 0.5, sleep: async (ms) => { waits.push(ms); } } });
    const failure = await unwrap(ramp.GET('/orders')).catch((e: unknown) => e);
    expect(failure).toMatchObject({ slug: 'service-unavailable', status: 503 });
    expect(sent).toHaveLength(4);
    // Equal jitter over 100, 200, 400 ms: half of each step plus half of the rest.
    expect(waits).toEqual([75, 150, 300]);
  });

  it('retries quote-unavailable, and never a conflict or a validation error', async () => {
    const quote = { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '500.00', rail: 'spei', walletAddress: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' } as const;
    const unavailable = recording((attempt) => (attempt === 1 ? 'code=422, example=QuoteUnavailable' : undefined));
    const created = await client({ fetch: unavailable.fetch }).POST('/organization/{organizationId}/quote', { params: { path: { organizationId } }, body: quote });
    expect(unavailable.sent).toHaveLength(2);
    expect(created.response.status).toBe(201);
    for (const prefer of ['code=409', 'code=400']) {
      const once = recording(() => prefer);
      const { response } = await client({ fetch: once.fetch }).POST('/organization/{organizationId}/quote', { params: { path: { organizationId } }, body: quote });
      expect(response.status).toBe(Number(prefer.slice(5)));
      expect(once.sent, prefer).toHaveLength(1);
    }
  });

  it('walks a v2 list and a v1 list to their last page', async () => {
    const ramp = client();
    const subscriptions = [];
    for await (const subscription of ramp.paginate('GET', '/webhook_subscriptions')) subscriptions.push(subscription);
    expect(subscriptions.length).toBeGreaterThan(0);
    expect(subscriptions[0]).toMatchObject({ id: expect.any(String), eventType: expect.any(String) });
    const wallets = [];
    for await (const wallet of ramp.paginate('POST', '/ramp/customer/{customer_id}/wallets', { params: { path: { customer_id: organizationId } }, body: { pageSize: 50 } })) wallets.push(wallet);
    expect(wallets.length).toBeGreaterThan(0);
  });

  it('stops with an error instead of looping when the server answers another page than asked', async () => {
    // The mock answers its one example (page 0, next → page 1) whatever page is asked.
    const ramp = client();
    const pages = ramp.pages('POST', '/ramp/orders');
    expect((await pages.next()).value).toMatchObject({ pageNumber: 0 });
    await expect(pages.next()).rejects.toThrow(/asked for page 1, the server answered page 0/);
  });
});
