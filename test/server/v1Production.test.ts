/** In production every v1 money simulator is 403 in the v1 error shape, before anything else is looked at. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { count } from '../support/v1Money.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { RAMP_ENV: 'production' } });
});
afterAll(() => server.close());

describe('v1 sandbox simulators in production', () => {
  const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  it.each([
    ['/ramp/order/fiat_received', { orderId: id }],
    [`/sandbox/ramp/order/${id}/simulate`, { action: 'burnConfirmed' }],
    [`/sandbox/ramp/swap/${id}/simulate`, { action: 'sendConfirmed' }],
    [`/sandbox/ramp/bank-account/${id}/status`, { status: 'bank_account_active' }],
    [`/sandbox/ramp/customer/${id}/onboarding`, undefined],
  ])('POST %s is 403', async (path, body) => {
    const before = await count(server, 'events');
    const response = await server.call('POST', path, body === undefined ? {} : { body });
    expect(response.status).toBe(403);
    expect(response.json_).toEqual({ error: 'Sandbox simulation is not available in production' });
    expect(await count(server, 'events')).toBe(before);
    expect(await count(server, 'v1_onboarding_links')).toBe(0);
  });

  it('leaves the real endpoints answering', async () => {
    const response = await server.call('POST', '/ramp/orders', { body: {} });
    expect(response.status).toBe(200);
    expect(response.json_.items).toEqual([]);
  });
});
