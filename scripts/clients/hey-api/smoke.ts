/**
 * The partner flow with the client @hey-api/openapi-ts generates from
 * generated/openapi/ramp-clients.yaml (npm run test:clients), against a live sandbox:
 * RAMP_BASE_URL, RAMP_API_KEY; and a signed delivery the harness received, RAMP_DELIVERY_FILE. Type-checked with strict tsc before it runs.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { client } from './client/client.gen';
import { createWebhookSubscription, listOrganizations, listTokenCosts, v1CreateOrganization } from './client/sdk.gen';
import type { ConflictProblem, OrderUpdatedEvent, WebhookSubscriptionRequest } from './client/types.gen';

// The API key goes raw in Authorization, without a scheme.
client.setConfig({ baseUrl: process.env.RAMP_BASE_URL!, auth: () => process.env.RAMP_API_KEY! });

// Create a customer, then find it in the organization list.
const customer = await v1CreateOrganization({ body: { displayName: 'Smoke Customer', type: 'personal' }, throwOnError: true });
const page = await listOrganizations({ query: { pageSize: 100 }, throwOnError: true });
assert.ok(page.data.items.some((o) => o.organizationId === customer.data.organizationId));

// Token costs: public, no key.
const costs = await listTokenCosts({ throwOnError: true });
const cetes = costs.data['CETES'];
assert.ok(cetes && cetes.token_symbol === 'CETES' && cetes.currency === 'MXN' && Number(cetes.token_cost_in_fiat) > 0);

// A webhook subscription; its secret is shown once.
const body: WebhookSubscriptionRequest = { url: `https://partner.example/hooks/${randomUUID()}`, eventType: 'orderUpdated' };
const created = await createWebhookSubscription({ body, throwOnError: true });
assert.equal(created.data.url, body.url);
assert.equal(created.data.secret.length, 44);

// The same subscription again: 409, its body typed as the operation's error union and
// narrowed to ConflictProblem by its `type`.
const again = await createWebhookSubscription({ body });
assert.equal(again.response.status, 409);
assert.ok(again.error && again.error.type === 'https://docs.ramp.example/errors/conflict');
const conflict: ConflictProblem = again.error;
assert.equal(conflict.status, 409);
assert.ok(conflict.instance);

// The live delivery, read as the generated event model (hey-api makes types: the check is tsc's).
const delivered: OrderUpdatedEvent = JSON.parse(readFileSync(process.env.RAMP_DELIVERY_FILE!, 'utf8'));
console.log(`delivery ${delivered.event} ${delivered.order.id} ${delivered.order.status}`);

console.log('hey-api: organizations, customer, token costs, webhook subscription and its 409, delivery ok');
