/** In production every v1 money simulator is 403 in the v1 error shape, before anything else is looked at. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type Answer } from '../../support/api.ts';
import { expectPlainError } from '../../support/errors.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { count } from '../../support/v1Money.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { RAMP_ENV: 'production' } });
});
afterAll(() => server.close());

describe('v1 sandbox simulators in production', () => {
  const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  const path = { params: { path: { id } } };
  it.each<[string, () => Promise<Answer>]>([
    ['v1ConfirmFiatReceived', () => server.api.POST('/ramp/order/fiat_received', { body: { orderId: id } })],
    ['v1SimulateOrder', () => server.api.POST('/sandbox/ramp/order/{id}/simulate', { ...path, body: { action: 'burnConfirmed' } })],
    ['v1SimulateSwap', () => server.api.POST('/sandbox/ramp/swap/{id}/simulate', { ...path, body: { action: 'sendConfirmed' } })],
    ['v1SimulateBankAccount', () => server.api.POST('/sandbox/ramp/bank-account/{id}/status', { ...path, body: { status: 'bank_account_active' } })],
    ['v1CreateOnboardingUrl', () => server.api.POST('/sandbox/ramp/customer/{customer_id}/onboarding', { params: { path: { customer_id: id } } })],
  ])('%s is 403', async (_operation, call) => {
    const before = await count(server, 'events');
    expect(expectPlainError(await call(), 403)).toEqual({ error: 'Sandbox simulation is not available in production' });
    expect(await count(server, 'events')).toBe(before);
    expect(await count(server, 'v1_onboarding_links')).toBe(0);
  });

  it('leaves the real endpoints answering', async () => {
    expect(expectStatus(await server.api.POST('/ramp/orders', { body: {} }), 200).items).toEqual([]);
  });
});
