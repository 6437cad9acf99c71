/**
 * The partner flow with openapi-generator's typescript-fetch client, generated from
 * generated/openapi/ramp-clients.yaml (npm run test:clients), against a live sandbox:
 * RAMP_BASE_URL, RAMP_API_KEY; and a signed delivery the harness received, RAMP_DELIVERY_FILE.
 * Type-checked with strict tsc before it runs. An error answer
 * is thrown as a ResponseError; its body decodes with the generated problem model.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Configuration, ConflictProblemFromJSON, OrderUpdatedEventFromJSON, OrganizationsApi, PricesApi, ResponseError, WebhooksApi, type WebhookSubscriptionRequest } from './index';

// The API key goes raw in Authorization, without a scheme.
const configuration = new Configuration({ basePath: process.env.RAMP_BASE_URL!, apiKey: process.env.RAMP_API_KEY! });
const organizations = new OrganizationsApi(configuration);
const webhooks = new WebhooksApi(configuration);

// Create a customer, then find it in the organization list.
const customer = await organizations.v1CreateOrganization({ v1CreateOrganizationRequest: { displayName: 'Smoke Customer', type: 'personal' } });
const page = await organizations.listOrganizations({ pageSize: 100 });
assert.ok(page.items.some((o) => o.organizationId === customer.organizationId));

// Token costs: public, no key.
const costs = await new PricesApi(new Configuration({ basePath: process.env.RAMP_BASE_URL! })).listTokenCosts();
const cetes = costs['CETES'];
// The generator's default names are camelCase; it maps them to the wire's snake_case.
assert.ok(cetes && cetes.tokenSymbol === 'CETES' && cetes.currency === 'MXN' && Number(cetes.tokenCostInFiat) > 0);

// A webhook subscription; its secret is shown once.
const request: WebhookSubscriptionRequest = { url: `https://partner.example/hooks/${randomUUID()}`, eventType: 'orderUpdated' };
const created = await webhooks.createWebhookSubscription({ webhookSubscriptionRequest: request });
assert.equal(created.url, request.url);
assert.equal(created.secret.length, 44);

// The same subscription again: 409, decoded as the typed problem.
try {
  await webhooks.createWebhookSubscription({ webhookSubscriptionRequest: request });
  assert.fail('a duplicate subscription was accepted');
} catch (error) {
  assert.ok(error instanceof ResponseError && error.response.status === 409, String(error));
  const conflict = ConflictProblemFromJSON(await error.response.json());
  assert.equal(conflict.type, 'https://docs.ramp.example/errors/conflict');
  assert.equal(conflict.status, 409);
  assert.ok(conflict.instance);
}

// The live delivery, decoded with the generated event model (dates become Date objects).
const delivered = OrderUpdatedEventFromJSON(JSON.parse(readFileSync(process.env.RAMP_DELIVERY_FILE!, 'utf8')));
console.log(`delivery ${delivered.event} ${delivered.order.id} ${delivered.order.status}`);

console.log('typescript-fetch: organizations, customer, token costs, webhook subscription and its 409, delivery ok');
