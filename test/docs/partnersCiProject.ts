/**
 * The `npm test` of the partner project in which test/docs/partnersCi.test.ts runs
 * docs/partners-ci.md's shell example: what a partner's test file does with the environment the
 * example gives it. An isolated partner made with the client's helper (its `beforeAll`), every
 * flow of the service run for it (test/support/flowSuite.ts), the partner deleted (its
 * `afterAll`). Exits non-zero when a flow fails, as a failing test run does.
 */
import { createSandboxPartner } from '../../client/index.ts';
import { runFlowSuite } from '../support/flowSuite.ts';

const baseUrl = process.env.RAMP_BASE_URL;
const apiKey = process.env.RAMP_API_KEY;
if (!baseUrl || !apiKey) throw new Error('the example runs npm test with RAMP_BASE_URL and RAMP_API_KEY');

const partner = await createSandboxPartner({ baseUrl, apiKey, displayName: 'docs/partners-ci.md example' });
try {
  const result = await runFlowSuite({ baseUrl, apiKey: partner.apiKey });
  process.stdout.write(`every flow passed for partner ${partner.id}: ${result.flows.length} flows, ${result.webhooksVerified} webhooks verified\n`);
} finally {
  await partner.delete();
}
