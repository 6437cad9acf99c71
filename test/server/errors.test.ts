/**
 * The generic rules of every surface (each document's Errors section), over HTTP: v2 answers every error as
 * problem details (401, 405 with Allow, malformed JSON, 413, 415, not-found, 500), a path
 * matching nothing is a bare 404, v1 and lookup answer `{"error": ...}`, production refuses
 * the sandbox simulators, and nothing refused changes what is stored.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatApiKey, newKeyId } from '../../server/features/apiKeys/rules.ts';
import { loadContract } from '../../server/shared/contract.ts';
import { expectPlainError, expectProblem } from '../support/errors.ts';
import { rowCounts } from '../support/organizations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createCustomer, keyedBusinessChild, stranger } from '../support/fixtures.ts';

const contract = loadContract();

const json = { 'Content-Type': 'application/json' };

describe('errors', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  describe('401 unauthorized', () => {
    const badKeys = (s: TestServer): [string, Record<string, string>][] => {
      const [, keyId] = s.key.split(':');
      return [
        ['missing', {}],
        ['Bearer prefix', { Authorization: `Bearer ${s.key}` }],
        ['not ASCII', { Authorization: `${s.key}é` }],
        ['two segments', { Authorization: `api_sand:${keyId}` }],
        ['not a uuid org', { Authorization: `api_sand:${keyId}:partner` }],
        ['unknown key id', { Authorization: formatApiKey('sand', newKeyId(), s.partnerId) }],
        // Rule 5: the hash is salted per organization, so the key does not work under another id.
        ['another organization id', { Authorization: `api_sand:${keyId}:${randomUUID()}` }],
        ['production key on the sandbox', { Authorization: s.key.replace('api_sand:', 'api_prod:') }],
        ['empty', { Authorization: '' }],
      ];
    };

    it('v2: problem details of type unauthorized for every bad key', async () => {
      for (const [label, headers] of badKeys(server)) {
        const response = await server.call('GET', '/organizations', { key: null, headers });
        expect(response.status, label).toBe(401);
        expectProblem(response, 401, 'unauthorized');
      }
      expect((await server.call('GET', '/organizations')).status).toBe(200);
    });

    it('v1: {"error": ...} for every bad key', async () => {
      for (const [label, headers] of badKeys(server)) {
        const response = await server.call('POST', '/ramp/customers', { key: null, headers, body: {} });
        expect(response.status, label).toBe(401);
        expectPlainError(response, 401);
      }
    });

    it('a revoked key, at once', async () => {
      const created = await server.call('POST', `/organization/${server.partnerId}/api_key`);
      expect(created.status).toBe(201);
      expect((await server.call('GET', '/organizations', { key: created.json_.key })).status).toBe(200);
      expect((await server.call('DELETE', `/organization/${server.partnerId}/api_key/${created.json_.id}`)).status).toBe(204);
      expectProblem(await server.call('GET', '/organizations', { key: created.json_.key }), 401, 'unauthorized');
      expectPlainError(await server.call('GET', '/ramp/customers', { key: created.json_.key }), 401);
    });

    it('the detail says what is wrong, without echoing the key', async () => {
      const bearer = await server.call('GET', '/organizations', { key: `Bearer ${server.key}` });
      expect(bearer.json_.detail).toMatch(/Bearer/);
      expect(bearer.text_).not.toContain(server.key.split(':')[1]);
      const format = await server.call('GET', '/organizations', { key: 'api_sand:x' });
      expect(format.json_.detail).toMatch(/Invalid API key format/);
      const missing = await server.call('GET', '/organizations', { key: null });
      expect(missing.json_.detail).toBe('The Authorization header is missing; send the raw API key.');
      expect((await server.call('GET', '/ramp/customers', { key: null })).json_).toEqual({ error: 'The Authorization header is missing; send the raw API key.' });
    });
  });

  it('405 method-not-allowed with Allow, in each surface format', async () => {
    const v2 = await server.call('PATCH', '/organizations');
    expectProblem(v2, 405, 'method-not-allowed');
    expect(v2.headers.get('allow')).toBe('GET');
    const withId = await server.call('PUT', `/organization/${server.partnerId}/api_key/${randomUUID()}`);
    expectProblem(withId, 405, 'method-not-allowed');
    expect(withId.headers.get('allow')).toBe('DELETE');
    const v1 = await server.call('DELETE', '/ramp/customers');
    expectPlainError(v1, 405);
    expect(v1.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
    const lookup = await server.call('POST', '/lookup/tokens/cost', { key: null });
    expectPlainError(lookup, 405);
    expect(lookup.headers.get('allow')).toBe('GET');
  });

  it('malformed JSON: v2 invalid-request, v1 {"error": ...}', async () => {
    expectProblem(await server.call('POST', '/webhook_subscription', { raw: '{"url": ', headers: json }), 400, 'invalid-request');
    expectProblem(await server.call('POST', `/organization/${server.partnerId}/api_key`, { raw: '{oops', headers: json }), 400, 'invalid-request');
    expectPlainError(await server.call('POST', '/ramp/customers', { raw: '{"pageSize": 5,', headers: json }), 400);
    expectPlainError(await server.call('POST', '/ramp/organization', { raw: 'nope', headers: json }), 400);
  });

  it('413 payload-too-large and 415 unsupported-media-type', async () => {
    const big = JSON.stringify({ url: `https://example.com/${'x'.repeat(300_000)}`, eventType: 'orderUpdated' });
    expectProblem(await server.call('POST', '/webhook_subscription', { raw: big, headers: json }), 413, 'payload-too-large');
    expectPlainError(await server.call('POST', '/ramp/customers', { raw: JSON.stringify({ pad: 'x'.repeat(300_000) }), headers: json }), 413);
    const text = await server.call('POST', '/webhook_subscription', { raw: 'url=https://example.com', headers: { 'Content-Type': 'text/plain' } });
    expectProblem(text, 415, 'unsupported-media-type');
    expectPlainError(await server.call('POST', '/ramp/customers', { raw: '{}', headers: { 'Content-Type': 'text/plain' } }), 415);
  });

  it('a path that matches no endpoint: a bare 404, with or without a key', async () => {
    for (const path of ['/nothing', '/organizationz', `/organization/${server.partnerId}/nothing`, '/ramp/nothing', '/lookup/nothing', '/sandbox/nothing']) {
      for (const key of [undefined, null]) {
        const response = await server.call('GET', path, { key });
        expect(response.status, path).toBe(404);
        expect(response.text_, path).toBe('');
        expect(response.headers.get('content-type'), path).toBeNull();
      }
    }
  });

  it('grandchildren and strangers are not-found, exactly like ids that do not exist', async () => {
    const child = await keyedBusinessChild(server);
    const grandchild = await createCustomer(server, { key: child.key });
    const other = await stranger(server);
    const othersChild = await stranger(server, other);
    for (const id of [grandchild, other, othersChild, randomUUID()]) {
      expectProblem(await server.call('GET', `/organization/${id}`), 404, 'not-found');
      expectProblem(await server.call('GET', `/organization/${id}/api_keys`), 404, 'not-found');
      expectProblem(await server.call('POST', `/organization/${id}/api_key`), 404, 'not-found');
      expectPlainError(await server.call('PUT', `/ramp/organization/${id}/name`, { body: { displayName: 'Renamed' } }), 404);
      expectPlainError(await server.call('GET', `/ramp/customer/${id}`), 404);
    }
    // The child itself reaches its own child.
    expect((await server.call('GET', `/organization/${grandchild}`, { key: child.key })).status).toBe(200);
  });

  it('a bad path id or query parameter is invalid-request (v2) or {"error"} (v1)', async () => {
    expectProblem(await server.call('GET', '/organization/not-a-uuid'), 400, 'invalid-request');
    expectProblem(await server.call('GET', '/organizations?pageSize=0'), 400, 'invalid-request');
    expectProblem(await server.call('GET', '/organizations?pageSize=101'), 400, 'invalid-request');
    expectProblem(await server.call('GET', '/organizations?pageNumber=-1'), 400, 'invalid-request');
    expectProblem(await server.call('GET', '/organizations?unknown=1'), 400, 'invalid-request');
    expectPlainError(await server.call('GET', '/ramp/customer/not-a-uuid'), 400);
    const lookup = await server.call('GET', '/lookup/tokens/cost?max_age=-1', { key: null });
    expectPlainError(lookup, 400);
  });

  it('auth answers OAuth errors, never problem details', async () => {
    const response = await server.call('POST', '/auth/token', { key: null, raw: '{', headers: json });
    expect(response.status).toBe(400);
    expect(response.json_).toMatchObject({ error: 'invalid_request', error_description: expect.any(String) });
  });

  it('every occurrence has its own instance', async () => {
    const a = await server.call('GET', '/organizations', { key: null });
    const b = await server.call('GET', '/organizations', { key: null });
    expect(a.json_.instance).not.toBe(b.json_.instance);
  });

  it('refused requests store nothing', async () => {
    const child = await createCustomer(server, { type: 'business' });
    const before = await rowCounts(server);
    const partner = (await server.call('GET', `/organization/${server.partnerId}`)).json_;
    const refused: [string, string, { body?: unknown; raw?: string; headers?: Record<string, string>; key?: string | null }][] = [
      ['POST', '/ramp/organization', { body: { displayName: 'No key', type: 'personal' }, key: null }],
      ['POST', '/ramp/organization', { body: { displayName: 'Bearer', type: 'personal' }, key: `Bearer ${server.key}` }],
      ['POST', '/ramp/organization', { raw: '{"displayName": "x", "type": "personal"', headers: json }],
      ['POST', '/ramp/organization', { body: { type: 'personal' } }],
      ['POST', '/ramp/organization', { body: { displayName: '   ', type: 'personal' } }],
      ['POST', '/ramp/organization', { body: { displayName: 'Bad type', type: 'robot' } }],
      ['POST', '/ramp/organization', { body: { displayName: 'Taken', type: 'personal', organizationId: child } }],
      ['POST', '/ramp/organization', { body: { displayName: 'Taken', type: 'personal', organizationId: server.partnerId } }],
      ['POST', '/ramp/organization', { body: { displayName: 'Bad id', type: 'personal', organizationId: 'abc' } }],
      ['PUT', `/ramp/organization/${server.partnerId}/name`, { body: { displayName: '' } }],
      ['PUT', `/ramp/organization/${server.partnerId}/name`, { body: { displayName: 'x'.repeat(201) } }],
      ['PUT', `/ramp/organization/${randomUUID()}/name`, { body: { displayName: 'Nobody' } }],
      ['POST', `/organization/${child}/api_key`, {}],
      ['POST', `/organization/${randomUUID()}/api_key`, {}],
      ['DELETE', `/organization/${server.partnerId}/api_key/${randomUUID()}`, {}],
      ['POST', `/organization/${server.partnerId}/api_key`, { key: null }],
    ];
    for (const [method, path, options] of refused) {
      const response = await server.call(method, path, options);
      expect(response.status, `${method} ${path} ${JSON.stringify(options.body ?? options.raw)}`).toBeGreaterThanOrEqual(400);
    }
    expect(await rowCounts(server)).toEqual(before);
    expect((await server.call('GET', `/organization/${server.partnerId}`)).json_).toEqual(partner);
  });
});

describe('an unexpected error', () => {
  it('is 500 internal-error with the fixed detail, logged with its instance, never a stack', async () => {
    const server = await startTestServer();
    const fixed = contract.document.components.responses.InternalError.content['application/problem+json'].examples.InternalError.value.detail;
    try {
      // Storage failing under the server: every request that needs it fails unexpectedly.
      await server.services.storage.close();
      const v2 = await server.call('GET', '/organizations');
      expectProblem(v2, 500, 'internal-error');
      expect(v2.json_.detail).toBe(fixed);
      expect(Object.keys(v2.json_).sort()).toEqual(['detail', 'instance', 'status', 'title', 'type']);
      const logged = server.logs.map((line) => JSON.parse(line)).find((entry) => entry.instance === v2.json_.instance);
      expect(logged).toMatchObject({ level: 50, method: 'GET', path: '/organizations', err: { message: expect.any(String), stack: expect.any(String) } });
      // The log has the cause (a closed pool or database), the client only the generic sentence.
      expect(logged.err.message).not.toMatch(/authentication could not complete/);
      const v1 = await server.call('POST', '/ramp/customers', { body: {} });
      expectPlainError(v1, 500);
      expect(v1.text_).not.toMatch(/at .*\.ts:\d+/);
      expect(v1.text_).not.toContain(logged.err.message);
    } finally {
      await server.close().catch(() => undefined);
    }
  });
});

describe('in production', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_ENV: 'production' } });
  });
  afterAll(() => server.close());

  it('every sandbox simulator answers 403 forbidden in its surface format', async () => {
    const simulators = contract.operations.filter((operation) => operation.sandbox);
    expect(simulators.length).toBeGreaterThanOrEqual(5);
    for (const operation of simulators) {
      const path = operation.path.replace(/\{[^}]+\}/g, server.partnerId);
      // A GET carries no body (GET /sandbox/clock, the event feed, the console's page and files); fetch refuses to send one with GET.
      const response = await server.call(operation.method.toUpperCase(), path, operation.method === 'get' ? {} : { body: {} });
      if (path.startsWith('/sandbox/ramp/') || path.startsWith('/ramp/')) expectPlainError(response, 403);
      else expectProblem(response, 403, 'forbidden');
    }
  });

  it('refuses sandbox keys and serves production ones', async () => {
    expect(server.key.startsWith('api_prod:')).toBe(true);
    expect((await server.call('GET', '/organizations')).status).toBe(200);
    const sand = server.key.replace('api_prod:', 'api_sand:');
    const response = await server.call('GET', '/organizations', { key: sand });
    expectProblem(response, 401, 'unauthorized');
    expect(response.json_.detail).toMatch(/sandbox/);
  });
});
