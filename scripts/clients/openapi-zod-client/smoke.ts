/**
 * The partner flow with the zodios client openapi-zod-client generates from
 * generated/openapi/ramp-clients.yaml (npm run test:clients), against a live sandbox:
 * RAMP_BASE_URL, RAMP_API_KEY; and a signed delivery the harness received, RAMP_DELIVERY_FILE. Type-checked with strict tsc before it runs; every answer is
 * also checked at run time against the generated zod schemas.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isErrorFromAlias } from '@zodios/core';
import { createApiClient, schemas } from './client/ramp';

const api = createApiClient(process.env.RAMP_BASE_URL!);
// The API key goes raw in Authorization, without a scheme.
const withKey = { headers: { Authorization: process.env.RAMP_API_KEY! } };

// Create a customer, then find it in the organization list.
const customer = await api.v1CreateOrganization({ displayName: 'Smoke Customer', type: 'personal' }, withKey);
const page = await api.listOrganizations({ ...withKey, queries: { pageSize: 100 } });
assert.ok(page.items.some((o) => o.organizationId === customer.organizationId));

// Token costs: public, no key.
const costs = await api.listTokenCosts();
const cetes = costs['CETES'];
assert.ok(cetes && cetes.token_symbol === 'CETES' && cetes.currency === 'MXN' && Number(cetes.token_cost_in_fiat) > 0);

// A webhook subscription; its secret is shown once.
const body = { url: `https://partner.example/hooks/${randomUUID()}`, eventType: 'orderUpdated' as const };
const created = await api.createWebhookSubscription(body, withKey);
assert.equal(created.url, body.url);
assert.equal(created.secret.length, 44);

// The same subscription again: 409, its body typed as the operation's error union and
// narrowed to the conflict problem by its `type`.
try {
  await api.createWebhookSubscription(body, withKey);
  assert.fail('a duplicate subscription was accepted');
} catch (error) {
  assert.ok(isErrorFromAlias(api.api, 'createWebhookSubscription', error) && error.response.status === 409, String(error));
  const problem = error.response.data;
  assert.ok(problem.type === 'https://docs.ramp.example/errors/conflict');
  const conflict = schemas.ConflictProblem.parse(problem);
  assert.equal(conflict.status, 409);
  assert.ok(conflict.instance);
}

// The live delivery, decoded and validated with the event model --export-schemas exports.
const delivered = schemas.OrderUpdatedEvent.parse(JSON.parse(readFileSync(process.env.RAMP_DELIVERY_FILE!, 'utf8')));
console.log(`delivery ${delivered.event} ${delivered.order.id} ${delivered.order.status}`);

console.log('openapi-zod-client: organizations, customer, token costs, webhook subscription and its 409, delivery ok');
