/**
 * Defects that `npm run test:fuzz` (Schemathesis), the property tests of test/fuzz and the
 * security review (issue 14) found, each kept as the request that showed it. The test server
 * validates its responses against the contract, so an undocumented answer would be a 500 here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPlainError, expectProblem, slugOf } from '../support/errors.ts';
import { rowCounts } from '../support/organizations.ts';
import { jwtBearer, Partner, rawJwt, tokenRequest } from '../support/partner.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { customerClabe, solanaAddress } from '../support/fixtures.ts';

let server: TestServer;
let child: string;
beforeAll(async () => {
  server = await startTestServer();
  child = (await server.call('POST', '/ramp/organization', { body: { displayName: 'Customer', type: 'personal' } })).json_.organizationId;
});
afterAll(() => server?.close());


describe('a JSON body is taken as sent, never coerced', () => {
  it('refuses `false` where a string is required instead of storing "false"', async () => {
    const before = await rowCounts(server);
    const renamed = await server.call('PUT', `/ramp/organization/${child}/name`, { body: { displayName: false } });
    expect(renamed.status, renamed.text_).toBe(400);
    expect(renamed.json_).toEqual({ error: expect.stringMatching(/displayName/) });
    const organization = await server.call('GET', `/organization/${child}`);
    expect(organization.json_.displayName).toBe('Customer');
    const account = await server.call('POST', `/organization/${server.partnerId}/payment_account`, {
      body: { kind: 'bankAccount', rail: 'spei', accountDetails: { clabe: '002010077777777771' }, registrationInfo: { accountHolderName: false, taxId: 'GOMM900101AB3' } },
    });
    expect(account.status, account.text_).toBe(400);
    expect(slugOf(account)).toBe('validation-error');
    expect(await rowCounts(server)).toEqual(before);
  });

  it('refuses `filters: false` in a v1 list body', async () => {
    for (const path of ['/ramp/customers', '/ramp/orders', '/ramp/wallets', '/ramp/bank-accounts', '/ramp/webhooks']) {
      const response = await server.call('POST', path, { body: { filters: false } });
      expect(response.status, `${path} ${response.text_}`).toBe(400);
      expect(response.json_).toEqual({ error: expect.stringMatching(/filters/) });
    }
  });
});

describe('page numbers beyond any page', () => {
  it('are a 400, not a database error, in v2 query parameters', async () => {
    for (const path of ['/orders', '/organizations', '/webhook_subscriptions', `/organization/${server.partnerId}/payment_accounts`]) {
      const response = await server.call('GET', `${path}?pageNumber=800029326935549705241498563068821504`);
      expect(response.status, `${path} ${response.text_}`).toBe(400);
      expect(slugOf(response)).toBe('invalid-request');
    }
  });

  it('are a 400 in the v1 query and body', async () => {
    const query = await server.call('POST', '/ramp/webhooks?pageSize=30&pageNumber=800029326935549705241498563068821504', { body: { pageSize: 5 } });
    expectPlainError(query, 400, query.text_);
    const body = await server.call('POST', '/ramp/customers', { body: { pageNumber: 1e300 } });
    expect(body.status, body.text_).toBe(400);
    expect(body.json_).toEqual({ error: expect.stringMatching(/pageNumber/) });
  });

  it('still answer an empty page up to the largest documented page number', async () => {
    const v2 = await server.call('GET', '/orders?pageNumber=2147483647&pageSize=100');
    expect(v2.status, v2.text_).toBe(200);
    expect(v2.json_).toMatchObject({ items: [], pageNumber: 2147483647 });
    const v1 = await server.call('POST', '/ramp/customers', { body: { pageNumber: 2147483647, pageSize: 100 } });
    expect(v1.status, v1.text_).toBe(200);
    expect(v1.json_).toMatchObject({ items: [], pageNumber: 2147483647, next: null });
  });
});

it('refuses a max_age no client can read exactly (above 2^53 - 1) with a lookup 400', async () => {
  for (const path of ['/lookup/tokens/cost', '/lookup/tokens/cost/CETES', '/lookup/bonds/cost', '/lookup/exchange_rate']) {
    const response = await server.call('GET', `${path}?max_age=9223372036854775808`, { key: null });
    expectPlainError(response, 400, `${path} ${response.text_}`);
  }
  expect((await server.call('GET', '/lookup/tokens/cost?max_age=9007199254740991', { key: null })).status).toBe(200);
});

it('answers a v1 id that is not a UUID with its documented 400', async () => {
  for (const [method, path] of [
    ['GET', '/ramp/order/null%2Cnull'], ['POST', '/ramp/order/0.5/cancel'], ['POST', '/ramp/order/true/regenerate_tx'],
    ['GET', '/ramp/swap/x'], ['POST', '/ramp/swap/x/regenerate_tx'], ['GET', '/ramp/wallet/x'], ['GET', '/ramp/bank-account/x'],
    ['GET', '/ramp/webhook/x'], ['DELETE', '/ramp/webhook/x'], ['GET', '/ramp/customer/x'], ['POST', '/sandbox/ramp/customer/x/onboarding'],
  ] as const) {
    const response = await server.call(method, path);
    expect(response.status, `${method} ${path} ${response.text_}`).toBe(400);
    expect(response.json_).toEqual({ error: expect.stringMatching(/uuid/) });
  }
});

it('answers a v1 body that is not JSON with its documented 415', async () => {
  for (const path of ['/ramp/order', '/ramp/swap', '/ramp/webhook', '/ramp/customers', '/ramp/order/fiat_received', `/ramp/customer/${child}/kyc`]) {
    const response = await server.call('POST', path, { raw: 'hello', headers: { 'Content-Type': 'text/plain' } });
    expect(response.status, `${path} ${response.text_}`).toBe(415);
    expect(response.json_).toEqual({ error: expect.stringMatching(/media type/) });
  }
});

it('passes on a query parameter of an app page named like the parameter object itself', async () => {
  for (const page of ['/onramp', '/offramp', '/swap', '/kyc', '/kyb', '/account']) {
    const plain = await server.call('GET', `${page}?amount=5`, { key: null });
    const named = await server.call('GET', `${page}?query=x`, { key: null });
    expect(named.status, `${page} ${named.text_.slice(0, 200)}`).toBe(plain.status);
    expect(named.headers.get('content-type')).toBe(plain.headers.get('content-type'));
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
      const name = (await server.call('GET', `/organization/${child}`)).json_.displayName;
      const p = server.partnerId;

      const renamed = await server.call('PUT', `/ramp/organization/${child}/name`, { body: { displayName: text } });
      expectPlainError(renamed, 400);
      expect(renamed.json_.error).toMatch(new RegExp(`^displayName ${reason.source}`));
      const created = await server.call('POST', '/ramp/organization', { body: { displayName: text, type: 'personal' } });
      expectPlainError(created, 400);
      const v1Hook = await server.call('POST', '/ramp/webhook', { body: { url: `https://hooks.partner.example/${text}`, eventTypes: ['order_updated'] } });
      expectPlainError(v1Hook, 400);

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
        const response = await server.call(method, path, { body });
        expectProblem(response, 400, 'validation-error', `${path}: ${response.text_}`);
        expect(response.json_.errors, path).toEqual([{ pointer, detail: expect.stringMatching(reason) }]);
      }

      expect((await server.call('GET', `/organization/${child}`)).json_.displayName).toBe(name);
      expect(await rowCounts(server)).toEqual(before);
    });

    it('is refused in the unverified iss of an assertion, with no credentials, before any lookup', async () => {
      const assertion = rawJwt({ alg: 'ES256', typ: 'JWT' }, { iss: text, sub: crypto.randomUUID() }, 'c2ln');
      const token = await tokenRequest(server, { grant_type: jwtBearer, assertion });
      expect(token.status, token.text_).toBe(400);
      expect(token.json_).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(new RegExp(`/iss ${reason.source}`)) });
      const launch = await server.call('POST', '/auth/launch', {
        key: null,
        raw: new URLSearchParams({ grant_type: jwtBearer, assertion, target: '/kyc' }).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(launch.status, launch.text_).toBe(400);
      expect(launch.headers.get('content-type')).toMatch(/^text\/html/);
      expect(launch.text_).toMatch(/<meta name="oauth-error" content="invalid_request">/);
      expect(launch.text_).toMatch(reason);
    });

    it('is refused in a signed claim that the sign-in would store, creating no customer', async () => {
      const partner = await Partner.create(server);
      await partner.register();
      const before = await rowCounts(server);
      const response = await tokenRequest(server, { grant_type: jwtBearer, assertion: await partner.sign({ name: `Ana ${text}` }) });
      expect(response.status, response.text_).toBe(400);
      expect(response.json_).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(new RegExp(`/name ${reason.source}`)) });
      expect(await rowCounts(server)).toEqual(before);
    });
  });

  it('reads back exactly the well-formed text it accepted, astral characters included', async () => {
    const name = 'Niño 🙂 𝔘 \u00e9\u0301';
    const renamed = await server.call('PUT', `/ramp/organization/${child}/name`, { body: { displayName: name } });
    expect(renamed.status, renamed.text_).toBe(200);
    expect(renamed.json_.displayName).toBe(name);
    expect((await server.call('GET', `/organization/${child}`)).json_.displayName).toBe(name);
    expect((await server.call('GET', `/ramp/customer/${child}`)).json_).toMatchObject({ displayName: name });
  });
});
