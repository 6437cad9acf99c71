/**
 * Defects that `npm run test:fuzz` (Schemathesis), the property tests of test/fuzz and the
 * security review (issue 14) found, each kept as the request that showed it. The test server
 * validates its responses against the contract, so an undocumented answer would be a 500 here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAnswer, expectStatus } from '../support/api.ts';
import { expectOAuthError, expectPlainError, expectProblem } from '../support/errors.ts';
import { rowCounts } from '../support/organizations.ts';
import { jwtBearer, launchSession, Partner, rawJwt, requestToken } from '../support/partner.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createCustomer, customerClabe, solanaAddress } from '../support/fixtures.ts';

let server: TestServer;
let child: string;
beforeAll(async () => {
  server = await startTestServer();
  child = await createCustomer(server, { displayName: 'Customer', type: 'personal' });
});
afterAll(() => server?.close());

/** The customer's name as v2 reads it (`getOrganization`). */
const nameOf = async (organizationId: string) =>
  expectStatus(await server.api.GET('/organization/{organizationId}', { params: { path: { organizationId } } }), 200).displayName;


describe('a JSON body is taken as sent, never coerced', () => {
  it('refuses `false` where a string is required instead of storing "false"', async () => {
    const before = await rowCounts(server);
    const renamed = await server.sendRaw('PUT', `/ramp/organization/${child}/name`, { body: { displayName: false } });
    expect(expectPlainError(renamed, 400).error).toMatch(/displayName/);
    expect(await nameOf(child)).toBe('Customer');
    const account = await server.sendRaw('POST', `/organization/${server.partnerId}/payment_account`, {
      body: { kind: 'bankAccount', rail: 'spei', accountDetails: { clabe: '002010077777777771' }, registrationInfo: { accountHolderName: false, taxId: 'GOMM900101AB3' } },
    });
    expectProblem(account, 400, 'validation-error');
    expect(await rowCounts(server)).toEqual(before);
  });

  it('refuses `filters: false` in a v1 list body', async () => {
    for (const path of ['/ramp/customers', '/ramp/orders', '/ramp/wallets', '/ramp/bank-accounts', '/ramp/webhooks']) {
      const response = await server.sendRaw('POST', path, { body: { filters: false } });
      expect(expectPlainError(response, 400, `${path} ${response.text_}`).error).toMatch(/filters/);
    }
  });
});

describe('page numbers beyond any page', () => {
  it('are a 400, not a database error, in v2 query parameters', async () => {
    for (const path of ['/orders', '/organizations', '/webhook_subscriptions', `/organization/${server.partnerId}/payment_accounts`]) {
      // A number no JSON number type holds exactly: written out in the query as sent.
      const response = await server.sendRaw('GET', `${path}?pageNumber=800029326935549705241498563068821504`);
      expectProblem(response, 400, 'invalid-request', `${path} ${response.text_}`);
    }
  });

  it('are a 400 in the v1 query and body', async () => {
    expectPlainError(await server.sendRaw('POST', '/ramp/webhooks?pageSize=30&pageNumber=800029326935549705241498563068821504', { body: { pageSize: 5 } }), 400);
    const body = await server.sendRaw('POST', '/ramp/customers', { body: { pageNumber: 1e300 } });
    expect(expectPlainError(body, 400).error).toMatch(/pageNumber/);
  });

  it('still answer an empty page up to the largest documented page number', async () => {
    const v2 = expectStatus(await server.api.GET('/orders', { params: { query: { pageNumber: 2147483647, pageSize: 100 } } }), 200);
    expect(v2).toMatchObject({ items: [], pageNumber: 2147483647 });
    const v1 = expectStatus(await server.api.POST('/ramp/customers', { body: { pageNumber: 2147483647, pageSize: 100 } }), 200);
    expect(v1).toMatchObject({ items: [], pageNumber: 2147483647, next: null });
  });
});

it('refuses a max_age no client can read exactly (above 2^53 - 1) with a lookup 400', async () => {
  for (const path of ['/lookup/tokens/cost', '/lookup/tokens/cost/CETES', '/lookup/bonds/cost', '/lookup/exchange_rate']) {
    const response = await server.sendRaw('GET', `${path}?max_age=9223372036854775808`, { key: null });
    expectPlainError(response, 400, `${path} ${response.text_}`);
  }
  expectStatus(await server.as(null).GET('/lookup/tokens/cost', { params: { query: { max_age: Number.MAX_SAFE_INTEGER } } }), 200);
});

it('answers a v1 id that is not a UUID with its documented 400', async () => {
  for (const [method, path] of [
    ['GET', '/ramp/order/null%2Cnull'], ['POST', '/ramp/order/0.5/cancel'], ['POST', '/ramp/order/true/regenerate_tx'],
    ['GET', '/ramp/swap/x'], ['POST', '/ramp/swap/x/regenerate_tx'], ['GET', '/ramp/wallet/x'], ['GET', '/ramp/bank-account/x'],
    ['GET', '/ramp/webhook/x'], ['DELETE', '/ramp/webhook/x'], ['GET', '/ramp/customer/x'], ['POST', '/sandbox/ramp/customer/x/onboarding'],
  ] as const) {
    const response = await server.sendRaw(method, path);
    expect(expectPlainError(response, 400, `${method} ${path} ${response.text_}`).error).toMatch(/uuid/);
  }
});

it('answers a v1 body that is not JSON with its documented 415', async () => {
  for (const path of ['/ramp/order', '/ramp/swap', '/ramp/webhook', '/ramp/customers', '/ramp/order/fiat_received', `/ramp/customer/${child}/kyc`]) {
    const response = await server.sendRaw('POST', path, { raw: 'hello', headers: { 'Content-Type': 'text/plain' } });
    expect(expectPlainError(response, 415, `${path} ${response.text_}`).error).toBe('Content-Type text/plain is not accepted; send application/json.');
  }
});

it('passes on a query parameter of an app page named like the parameter object itself', async () => {
  // The contract's AppPageQuery is an exploded form object: its keys are the parameters (`?amount=5`, `?query=x`).
  const open = (page: '/onramp' | '/offramp' | '/swap' | '/kyc' | '/kyb' | '/account', query: Record<string, string>) =>
    server.as(null).GET(page, { params: { query: { query } }, querySerializer: { object: { style: 'form', explode: true } }, parseAs: 'text' });
  for (const page of ['/onramp', '/offramp', '/swap', '/kyc', '/kyb', '/account'] as const) {
    const plain = await open(page, { amount: '5' });
    const named = await open(page, { query: 'x' });
    expect(named.response.url).toMatch(/\?query=x$/);
    expect(named.response.status, `${page} ${describeAnswer(named).slice(0, 200)}`).toBe(plain.response.status);
    expect(named.response.headers.get('content-type')).toBe(plain.response.headers.get('content-type'));
  }
});

/**
 * What a client writes is what it reads, on SQLite and PostgreSQL alike (security review,
 * issue 14): a string with a NUL (which PostgreSQL cannot keep: it answered 500 where SQLite
 * stored it) or a lone surrogate (which each engine stored as a different replacement, so the
 * 201 echoed one string and every later read another) is refused with the surface's
 * documented 400 before anything is looked up or stored; a well-formed string comes back
 * exactly as sent. The sweep over every operation is in test/server/documentedErrors.test.ts.
 */
describe('strings that are not text', () => {
  const refusedStrings = [
    { name: 'a NUL', text: 'a\u0000b', reason: /must not contain the NUL character/ },
    { name: 'a lone surrogate', text: 'a\ud800b', reason: /must be well-formed Unicode/ },
  ];

  describe.each(refusedStrings)('$name', ({ text, reason }) => {
    it('is refused in every kind of field the sandbox answered 500 or stored mangled, storing nothing', async () => {
      const before = await rowCounts(server);
      const name = await nameOf(child);
      const p = server.partnerId;

      const renamed = await server.sendRaw('PUT', `/ramp/organization/${child}/name`, { body: { displayName: text } });
      expect(expectPlainError(renamed, 400).error).toMatch(new RegExp(`^displayName ${reason.source}`));
      expectPlainError(await server.sendRaw('POST', '/ramp/organization', { body: { displayName: text, type: 'personal' } }), 400);
      expectPlainError(await server.sendRaw('POST', '/ramp/webhook', { body: { url: `https://hooks.partner.example/${text}`, eventTypes: ['order_updated'] } }), 400);

      // v2: a validation-error pointing at the string.
      const v2 = [
        {
          path: `/organization/${p}/payment_account`,
          body: { kind: 'bankAccount', rail: 'spei', accountDetails: { clabe: customerClabe() }, registrationInfo: { accountHolderName: text, taxId: 'GOMM900101AB3' } },
          pointer: '/registrationInfo/accountHolderName',
        },
        { path: `/organization/${p}/quote`, body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: `${solanaAddress()}${text}` }, pointer: '/walletAddress' },
        { path: '/webhook_subscription', body: { url: `http://127.0.0.1:9/${text}`, eventType: 'orderUpdated' }, pointer: '/url' },
        { path: '/jwt_issuer', method: 'PUT', body: { issuer: `https://auth.${text}.example`, jwks: { keys: [] } }, pointer: '/issuer' },
        // A property name is text too: pointed at by its object.
        { path: `/organization/${p}/wallet`, body: { custody: 'external', blockchain: 'solana', address: solanaAddress(), [text]: 1 }, pointer: '/' },
      ];
      for (const { path, method = 'POST', body, pointer } of v2) {
        const response = await server.sendRaw(method, path, { body });
        expect(expectProblem(response, 400, 'validation-error', `${path}: ${response.text_}`).errors, path).toEqual([{ pointer, detail: expect.stringMatching(reason) }]);
      }

      expect(await nameOf(child)).toBe(name);
      expect(await rowCounts(server)).toEqual(before);
    });

    it('is refused in the unverified iss of an assertion, with no credentials, before any lookup', async () => {
      const assertion = rawJwt({ alg: 'ES256', typ: 'JWT' }, { iss: text, sub: crypto.randomUUID() }, 'c2ln');
      // The form is well formed (the JWT is base64url text): what is not text is inside its claims.
      const token = expectOAuthError(await requestToken(server, { grant_type: jwtBearer, assertion }), 'invalid_request');
      expect(token.error_description).toMatch(new RegExp(`/iss ${reason.source}`));
      const launch = await launchSession(server, { grant_type: jwtBearer, assertion, target: '/kyc' });
      expect(launch.response.status, describeAnswer(launch)).toBe(400);
      expect(launch.response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(launch.error).toMatch(/<meta name="oauth-error" content="invalid_request">/);
      expect(launch.error).toMatch(reason);
    });

    it('is refused in a signed claim that the sign-in would store, creating no customer', async () => {
      const partner = await Partner.create(server);
      await partner.register();
      const before = await rowCounts(server);
      const response = expectOAuthError(await requestToken(server, { grant_type: jwtBearer, assertion: await partner.sign({ name: `Ana ${text}` }) }), 'invalid_request');
      expect(response.error_description).toMatch(new RegExp(`/name ${reason.source}`));
      expect(await rowCounts(server)).toEqual(before);
    });
  });

  it('reads back exactly the well-formed text it accepted, astral characters included', async () => {
    const name = 'Niño 🙂 𝔘 \u00e9\u0301';
    const renamed = expectStatus(await server.api.PUT('/ramp/organization/{org_id}/name', { params: { path: { org_id: child } }, body: { displayName: name } }), 200);
    expect(renamed.displayName).toBe(name);
    expect(await nameOf(child)).toBe(name);
    expect(expectStatus(await server.api.GET('/ramp/customer/{customer_id}', { params: { path: { customer_id: child } } }), 200)).toMatchObject({ displayName: name });
  });
});
