/**
 * Defects that `npm run test:fuzz` (Schemathesis) and the property tests of test/fuzz found,
 * each kept as the request that showed it. The test server validates its responses against
 * the contract, so an undocumented answer would be a 500 here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPlainError, slugOf } from '../support/errors.ts';
import { rowCounts } from '../support/organizations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

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
