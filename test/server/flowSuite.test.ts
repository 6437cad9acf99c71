/**
 * The partner flow suite (test/support/flowSuite.ts) against a started sandbox, as a partner's
 * CI runs its tests: once with the sandbox's own partner key, once with an isolated partner
 * made for the run by the client's `createSandboxPartner` and deleted after. On PostgreSQL too
 * (`npm run test:postgres` with DATABASE_URL). `npm run bench` times the same suite
 * (bench/flows.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxPartner } from '../../client/index.ts';
import { runFlowSuite } from '../support/flowSuite.ts';
import { flows } from '../support/flows.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describe('the partner flow suite', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it("runs every flow to its final status with the sandbox's partner key, and leaves its clock running", async () => {
    const result = await runFlowSuite({ baseUrl: server.url, apiKey: server.key });
    expect(result.flows.map((f) => f.name)).toEqual(Object.keys(flows));
    expect(result.partnerId).toBe(server.partnerId);
    // The onramp's, which the suite waits for; the later orders' may still be on their way.
    expect(result.webhooksVerified).toBeGreaterThanOrEqual(1);
    expect(expectClock(await server.api.GET('/sandbox/clock')).frozen).toBe(false);
    expect((await server.api.GET('/webhook_subscriptions')).data?.items).toEqual([]);
  });

  it('runs every flow for an isolated partner made for the run, which is then deleted', async () => {
    const partner = await createSandboxPartner({ baseUrl: server.url, apiKey: server.key, displayName: 'flow suite', retry: false });
    try {
      const result = await runFlowSuite({ baseUrl: server.url, apiKey: partner.apiKey });
      expect(result.partnerId).toBe(partner.id);
    } finally {
      await partner.delete();
    }
    expect((await partner.client.GET('/sandbox/clock')).response.status).toBe(401);
  });
});

function expectClock(answer: { data?: { frozen: boolean }; response: Response }) {
  if (!answer.data) throw new Error(`GET /sandbox/clock answered ${answer.response.status}`);
  return answer.data;
}
