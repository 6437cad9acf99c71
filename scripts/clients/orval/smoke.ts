/**
 * The partner flow with the client orval generates (its default: axios functions) from
 * generated/openapi/ramp-clients.yaml (npm run test:clients), against a live sandbox:
 * RAMP_BASE_URL, RAMP_API_KEY; and a signed delivery the harness received, RAMP_DELIVERY_FILE. Type-checked with strict tsc before it runs. orval's axios
 * functions type the success bodies only; an error body is read with the generated problem
 * type through axios.isAxiosError.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import axios from 'axios';
import { createWebhookSubscription, listOrganizations, listTokenCosts, v1CreateOrganization, type ConflictProblem, type OrderUpdatedEvent, type WebhookSubscriptionRequest } from './client/ramp';

axios.defaults.baseURL = process.env.RAMP_BASE_URL!;
// The API key goes raw in Authorization, without a scheme.
const withKey = { headers: { Authorization: process.env.RAMP_API_KEY! } };

// Create a customer, then find it in the organization list.
const customer = await v1CreateOrganization({ displayName: 'Smoke Customer', type: 'personal' }, withKey);
const page = await listOrganizations({ pageSize: 100 }, withKey);
assert.ok(page.data.items.some((o) => o.organizationId === customer.data.organizationId));

// Token costs: public, no key.
const costs = await listTokenCosts();
const cetes = costs.data['CETES'];
assert.ok(cetes && cetes.token_symbol === 'CETES' && cetes.currency === 'MXN' && Number(cetes.token_cost_in_fiat) > 0);

// A webhook subscription; its secret is shown once.
const body: WebhookSubscriptionRequest = { url: `https://partner.example/hooks/${randomUUID()}`, eventType: 'orderUpdated' };
const created = await createWebhookSubscription(body, withKey);
assert.equal(created.data.url, body.url);
assert.equal(created.data.secret.length, 44);

// The same subscription again: 409 with the conflict problem.
try {
  await createWebhookSubscription(body, withKey);
  assert.fail('a duplicate subscription was accepted');
} catch (error) {
  assert.ok(axios.isAxiosError<ConflictProblem>(error) && error.response?.status === 409, String(error));
  const conflict: ConflictProblem = error.response.data;
  assert.equal(conflict.type, 'https://docs.ramp.example/errors/conflict');
  assert.ok(conflict.instance);
}

// The live delivery, read as the generated event model (orval makes types: the check is tsc's).
const delivered: OrderUpdatedEvent = JSON.parse(readFileSync(process.env.RAMP_DELIVERY_FILE!, 'utf8'));
console.log(`delivery ${delivered.event} ${delivered.order.id} ${delivered.order.status}`);

console.log('orval: organizations, customer, token costs, webhook subscription and its 409, delivery ok');
