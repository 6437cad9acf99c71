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
import { bodyLimitBytes } from '../../server/shared/requestLimits.ts';
import { deref, loadBundle, type Json } from '../support/documents.ts';
import { expectStatus, type Api, type RawRequest, type RequestBody } from '../support/api.ts';
import { expectOAuthError, expectPlainError, expectProblem } from '../support/errors.ts';
import { rowCounts } from '../support/organizations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createCustomer, keyedBusinessChild, stranger } from '../support/fixtures.ts';

const contract = loadContract();

const json = { 'Content-Type': 'application/json' };

const organizations = (api: Api) => api.GET('/organizations');
const organization = (api: Api, organizationId: string) => api.GET('/organization/{organizationId}', { params: { path: { organizationId } } });
const createApiKey = (api: Api, organizationId: string) => api.POST('/organization/{organizationId}/api_key', { params: { path: { organizationId } } });
const deleteApiKey = (api: Api, organizationId: string, id: string) => api.DELETE('/organization/{organizationId}/api_key/{id}', { params: { path: { organizationId, id } } });
const rename = (api: Api, organizationId: string, displayName: string) =>
  api.PUT('/ramp/organization/{org_id}/name', { params: { path: { org_id: organizationId } }, body: { displayName } });

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
        // A key the contract's ApiKey scheme does not describe: sent as it is.
        const response = await server.sendRaw('GET', '/organizations', { key: null, headers });
        expect(response.status, label).toBe(401);
        expectProblem(response, 401, 'unauthorized');
      }
      expectStatus(await organizations(server.api), 200);
    });

    it('v1: {"error": ...} for every bad key', async () => {
      for (const [label, headers] of badKeys(server)) {
        const response = await server.sendRaw('POST', '/ramp/customers', { key: null, headers, body: {} });
        expect(response.status, label).toBe(401);
        expectPlainError(response, 401);
      }
    });

    it('a revoked key, at once', async () => {
      const created = expectStatus(await createApiKey(server.api, server.partnerId), 201);
      const revoked = server.as(created.key);
      expectStatus(await organizations(revoked), 200);
      expect((await deleteApiKey(server.api, server.partnerId, created.id)).response.status).toBe(204);
      expectProblem(await organizations(revoked), 401, 'unauthorized');
      expectPlainError(await revoked.GET('/ramp/customers'), 401);
    });

    it('the detail says what is wrong, without echoing the key', async () => {
      // Keys the ApiKey scheme does not describe, and none at all: sent as they are.
      const bearer = await server.sendRaw('GET', '/organizations', { key: `Bearer ${server.key}` });
      expect(expectProblem(bearer, 401, 'unauthorized').detail).toMatch(/Bearer/);
      expect(bearer.text_).not.toContain(server.key.split(':')[1]);
      const format = await server.sendRaw('GET', '/organizations', { key: 'api_sand:x' });
      expect(expectProblem(format, 401, 'unauthorized').detail).toMatch(/Invalid API key format/);
      const missing = await server.sendRaw('GET', '/organizations', { key: null });
      expect(expectProblem(missing, 401, 'unauthorized').detail).toBe('The Authorization header is missing; send the raw API key.');
      expect(expectPlainError(await server.sendRaw('GET', '/ramp/customers', { key: null }), 401)).toEqual({ error: 'The Authorization header is missing; send the raw API key.' });
    });
  });

  it('405 method-not-allowed with Allow, in each surface format', async () => {
    // Methods the paths do not take: only sendRaw sends them.
    const v2 = await server.sendRaw('PATCH', '/organizations');
    expectProblem(v2, 405, 'method-not-allowed');
    expect(v2.headers.get('allow')).toBe('GET');
    const withId = await server.sendRaw('PUT', `/organization/${server.partnerId}/api_key/${randomUUID()}`);
    expectProblem(withId, 405, 'method-not-allowed');
    expect(withId.headers.get('allow')).toBe('DELETE');
    const v1 = await server.sendRaw('DELETE', '/ramp/customers');
    expectPlainError(v1, 405);
    expect(v1.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
    const lookup = await server.sendRaw('POST', '/lookup/tokens/cost', { key: null });
    expectPlainError(lookup, 405);
    expect(lookup.headers.get('allow')).toBe('GET');
  });

  it('malformed JSON: v2 invalid-request, v1 {"error": ...}', async () => {
    expectProblem(await server.sendRaw('POST', '/webhook_subscription', { raw: '{"url": ', headers: json }), 400, 'invalid-request');
    expectProblem(await server.sendRaw('POST', `/organization/${server.partnerId}/api_key`, { raw: '{oops', headers: json }), 400, 'invalid-request');
    expectPlainError(await server.sendRaw('POST', '/ramp/customers', { raw: '{"pageSize": 5,', headers: json }), 400);
    expectPlainError(await server.sendRaw('POST', '/ramp/organization', { raw: 'nope', headers: json }), 400);
  });

  it('413 payload-too-large and 415 unsupported-media-type', async () => {
    const big = JSON.stringify({ url: `https://example.com/${'x'.repeat(300_000)}`, eventType: 'orderUpdated' });
    expectProblem(await server.sendRaw('POST', '/webhook_subscription', { raw: big, headers: json }), 413, 'payload-too-large');
    expectPlainError(await server.sendRaw('POST', '/ramp/customers', { raw: JSON.stringify({ pad: 'x'.repeat(300_000) }), headers: json }), 413);
    const text = await server.sendRaw('POST', '/webhook_subscription', { raw: 'url=https://example.com', headers: { 'Content-Type': 'text/plain' } });
    expectProblem(text, 415, 'unsupported-media-type');
    expectPlainError(await server.sendRaw('POST', '/ramp/customers', { raw: '{}', headers: { 'Content-Type': 'text/plain' } }), 415);
  });

  it('answers the generic refusals in the words of their examples in the reference', async () => {
    // Every operation refers to these answers (components/responses): what a partner reads there is what the sandbox says.
    const { responses } = loadBundle('ramp').components;
    const exampleOf = (name: string, media = 'application/problem+json') => Object.values<{ value: Record<string, unknown> }>(responses[name].content[media].examples)[0]!.value;
    const problem = ({ instance: _, ...rest }: Record<string, unknown>) => rest;
    const notAllowed = exampleOf('MethodNotAllowed');
    const path = /on (\/\S+)\.$/.exec(String(notAllowed.detail))![1]!;
    const refusals: [string, RawRequest & { method: string; path: string }][] = [
      ['Unauthorized', { method: 'GET', path: '/orders', key: 'api_sand:not-a-key' }],
      ['MethodNotAllowed', { method: 'PATCH', path }],
      ['InvalidRequest', { method: 'GET', path: '/orders?pageSize=1000' }],
      ['UnsupportedMediaType', { method: 'POST', path: '/webhook_subscription', raw: 'url=https://example.com', headers: { 'Content-Type': 'text/plain' } }],
      ['PayloadTooLarge', { method: 'POST', path: '/webhook_subscription', raw: JSON.stringify({ pad: 'x'.repeat(bodyLimitBytes) }), headers: json }],
    ];
    for (const [name, { method, path: at, ...request }] of refusals) {
      const answer = await server.sendRaw(method, at, request);
      expect(problem(answer.json_ as Record<string, unknown>), name).toEqual(problem(exampleOf(name)));
    }
    const v1 = await server.sendRaw('POST', '/ramp/customers', { raw: '{}', headers: { 'Content-Type': 'text/plain' } });
    expect(v1.json_).toEqual(exampleOf('V1UnsupportedMediaType', 'application/json'));
    // What the client sent is named, not echoed whole.
    const long = await server.sendRaw('PATCH', `/webhook_subscription/${'a'.repeat(5000)}`);
    expect(expectProblem(long, 405, 'method-not-allowed').detail).toBe(`PATCH is not allowed on /webhook_subscription/${'a'.repeat(200 - '/webhook_subscription/'.length)}….`);
    const odd = await server.sendRaw('POST', '/webhook_subscription', { raw: '{}', headers: { 'Content-Type': `text/${'x'.repeat(5000)}` } });
    expect(expectProblem(odd, 415, 'unsupported-media-type').detail).toBe(`Content-Type text/${'x'.repeat(95)} is not accepted; send application/json.`);
  });

  it('answers v1 and lookup refusals in the words of their examples in the reference', async () => {
    const { responses } = loadBundle('ramp').components;
    const examplesOf = (name: string) => responses[name].content['application/json'].examples as Record<string, { value: { error: string } }>;
    const list = (body: string): RawRequest => ({ raw: body, headers: json });
    const unknownKey = formatApiKey('sand', newKeyId(), randomUUID());
    const sent: Record<string, Record<string, [string, string, RawRequest]>> = {
      V1Unauthorized: {
        MalformedKey: ['GET', '/ramp/customers', { key: 'api_sand:x' }],
        InvalidKey: ['GET', '/ramp/customers', { key: unknownKey }],
        MissingKey: ['GET', '/ramp/customers', { key: null }],
      },
      V1ListBadRequest: {
        PageSizeTooLarge: ['POST', '/ramp/orders', list('{"pageSize":1000}')],
        PageSizeZero: ['POST', '/ramp/orders', list('{"pageSize":0}')],
        // Node.js words JSON.parse's message, and each release its own way: the example shows one.
        MalformedJson: ['POST', '/ramp/orders', list('{bad')],
        MissingFromDate: ['POST', '/ramp/orders', list('{"filters":{}}')],
        NotAnInstant: ['POST', '/ramp/orders', list('{"filters":{"fromDate":"2026-13-01T00:00:00Z"}}')],
      },
      LookupBadRequest: {
        BadMaxAge: ['GET', '/lookup/tokens/cost?max_age=-1', { key: null }],
        UnknownParameter: ['GET', '/lookup/tokens/cost?currency=x', { key: null }],
      },
    };
    for (const [response, requests] of Object.entries(sent)) {
      const examples = examplesOf(response);
      expect(Object.keys(requests).sort(), response).toEqual(Object.keys(examples).sort());
      for (const [name, [method, path, request]] of Object.entries(requests)) {
        const { error } = (await server.sendRaw(method, path, request)).json_ as { error: string };
        if (name === 'MalformedJson') expect(error).toMatch(/^The body is not valid JSON: /);
        else expect(error, `${response} ${name}`).toBe(examples[name]!.value.error);
      }
    }
  });

  it('answers each value refusal its reference shows in the words of the example', async () => {
    // "body/<field>: must be equal to one of the allowed values: …": the body's own example with that field replaced.
    const refusal = /^body\/(\w+): must be equal to one of the allowed values: /;
    const { document } = contract;
    let checked = 0;
    for (const o of contract.operations) {
      const operation = document.paths[o.path][o.method];
      const refused = deref(document, operation.responses?.['400'] ?? {}).content ?? {};
      const sample = Object.values<Json>(deref(document, operation.requestBody ?? {}).content?.['application/json']?.examples ?? {})[0];
      for (const media of Object.values<Json>(refused)) {
        for (const example of Object.values<Json>(media.examples ?? {})) {
          const { value } = deref(document, example);
          const words: string | undefined = value.detail ?? value.error;
          const field = words && refusal.exec(words)?.[1];
          if (!field || !sample) continue;
          const path = o.path.replace(/\{(organizationId|org_id)\}/g, server.partnerId).replace(/\{[^}]+\}/g, () => randomUUID());
          const body = { ...deref(document, sample).value, [field]: 'not-one-of-them' };
          const answer = await server.sendRaw(o.method.toUpperCase(), path, { body });
          expect(answer.status, `${o.operationId}: ${answer.text_}`).toBe(400);
          const said = (answer.json_ as { detail?: string; error?: string }).detail ?? (answer.json_ as { error?: string }).error;
          expect(said, o.operationId).toBe(words);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it('a path that matches no endpoint: a bare 404, with or without a key', async () => {
    for (const path of ['/nothing', '/organizationz', `/organization/${server.partnerId}/nothing`, '/ramp/nothing', '/lookup/nothing', '/sandbox/nothing']) {
      for (const key of [undefined, null]) {
        // Paths the contract does not have: only sendRaw sends them.
        const response = await server.sendRaw('GET', path, { key });
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
      expectProblem(await organization(server.api, id), 404, 'not-found');
      expectProblem(await server.api.GET('/organization/{organizationId}/api_keys', { params: { path: { organizationId: id } } }), 404, 'not-found');
      expectProblem(await createApiKey(server.api, id), 404, 'not-found');
      expectPlainError(await rename(server.api, id, 'Renamed'), 404);
      expectPlainError(await server.api.GET('/ramp/customer/{customer_id}', { params: { path: { customer_id: id } } }), 404);
    }
    // The child itself reaches its own child.
    expectStatus(await organization(server.as(child.key), grandchild), 200);
  });

  it('a bad path id or query parameter is invalid-request (v2) or {"error"} (v1)', async () => {
    // Ids and values the parameters' schemas refuse: sent as they are.
    expectProblem(await server.sendRaw('GET', '/organization/not-a-uuid'), 400, 'invalid-request');
    expectProblem(await server.sendRaw('GET', '/organizations?pageSize=0'), 400, 'invalid-request');
    expectProblem(await server.sendRaw('GET', '/organizations?pageSize=101'), 400, 'invalid-request');
    expectProblem(await server.sendRaw('GET', '/organizations?pageNumber=-1'), 400, 'invalid-request');
    expectProblem(await server.sendRaw('GET', '/organizations?unknown=1'), 400, 'invalid-request');
    expectPlainError(await server.sendRaw('GET', '/ramp/customer/not-a-uuid'), 400);
    const lookup = await server.sendRaw('GET', '/lookup/tokens/cost?max_age=-1', { key: null });
    expectPlainError(lookup, 400);
  });

  it('auth answers OAuth errors, never problem details', async () => {
    expectOAuthError(await server.sendRaw('POST', '/auth/token', { key: null, raw: '{', headers: json }), 'invalid_request');
  });

  it('every occurrence has its own instance', async () => {
    const a = expectProblem(await server.sendRaw('GET', '/organizations', { key: null }), 401, 'unauthorized');
    const b = expectProblem(await server.sendRaw('GET', '/organizations', { key: null }), 401, 'unauthorized');
    expect(a.instance).not.toBe(b.instance);
  });

  it('refused requests store nothing', async () => {
    const child = await createCustomer(server, { type: 'business' });
    const before = await rowCounts(server);
    const partner = expectStatus(await organization(server.api, server.partnerId), 200);
    const create = (body: RequestBody<'v1CreateOrganization'>) => server.api.POST('/ramp/organization', { body });
    // What the contract refuses (no key or a Bearer one, broken JSON, a body its schema
    // refuses) is sent as it is; the rest through the typed client, refused by the service.
    const createRaw = (o: RawRequest) => server.sendRaw('POST', '/ramp/organization', o);
    const renameRaw = (displayName: string) => server.sendRaw('PUT', `/ramp/organization/${server.partnerId}/name`, { body: { displayName } });
    // Each refusal is checked in its surface's format; a failure's stack names its line.
    const refusals: (() => Promise<unknown>)[] = [
      async () => expectPlainError(await createRaw({ body: { displayName: 'No key', type: 'personal' }, key: null }), 401),
      async () => expectPlainError(await createRaw({ body: { displayName: 'Bearer', type: 'personal' }, key: `Bearer ${server.key}` }), 401),
      async () => expectPlainError(await createRaw({ raw: '{"displayName": "x", "type": "personal"', headers: json }), 400),
      async () => expectPlainError(await createRaw({ body: { type: 'personal' } }), 400),
      async () => expectPlainError(await create({ displayName: '   ', type: 'personal' }), 400),
      async () => expectPlainError(await createRaw({ body: { displayName: 'Bad type', type: 'robot' } }), 400),
      async () => expectPlainError(await create({ displayName: 'Taken', type: 'personal', organizationId: child }), 409),
      async () => expectPlainError(await create({ displayName: 'Taken', type: 'personal', organizationId: server.partnerId }), 409),
      async () => expectPlainError(await createRaw({ body: { displayName: 'Bad id', type: 'personal', organizationId: 'abc' } }), 400),
      async () => expectPlainError(await renameRaw(''), 400),
      async () => expectPlainError(await renameRaw('x'.repeat(201)), 400),
      async () => expectPlainError(await rename(server.api, randomUUID(), 'Nobody'), 404),
      async () => expectProblem(await createApiKey(server.api, child), 403, 'forbidden'),
      async () => expectProblem(await createApiKey(server.api, randomUUID()), 404, 'not-found'),
      async () => expectProblem(await deleteApiKey(server.api, server.partnerId, randomUUID()), 404, 'not-found'),
      async () => expectProblem(await server.sendRaw('POST', `/organization/${server.partnerId}/api_key`, { key: null }), 401, 'unauthorized'),
    ];
    for (const refuse of refusals) await refuse();
    expect(await rowCounts(server)).toEqual(before);
    expect(expectStatus(await organization(server.api, server.partnerId), 200)).toEqual(partner);
  });
});

describe('an unexpected error', () => {
  it('is 500 internal-error with the fixed detail, logged with its instance, never a stack', async () => {
    const server = await startTestServer();
    const fixed = contract.document.components.responses.InternalError.content['application/problem+json'].examples.InternalError.value.detail;
    try {
      // Storage failing under the server: every request that needs it fails unexpectedly.
      await server.services.storage.close();
      const v2 = expectProblem(await organizations(server.api), 500, 'internal-error');
      expect(v2.detail).toBe(fixed);
      expect(Object.keys(v2).sort()).toEqual(['detail', 'instance', 'status', 'title', 'type']);
      const logged = server.logs.map((line) => JSON.parse(line)).find((entry) => entry.instance === v2.instance);
      expect(logged).toMatchObject({ level: 50, method: 'GET', path: '/organizations', err: { message: expect.any(String), stack: expect.any(String) } });
      // The log has the cause (a closed pool or database), the client only the generic sentence.
      expect(logged.err.message).not.toMatch(/authentication could not complete/);
      // `{"error": …}` and nothing else (expectPlainError): its one sentence has neither.
      const v1 = expectPlainError(await server.api.POST('/ramp/customers', { body: {} }), 500);
      expect(v1.error).not.toMatch(/at .*\.ts:\d+/);
      expect(v1.error).not.toContain(logged.err.message);
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
      // Every simulator the contract lists, by its method and path as written there: sent as
      // they are, with an empty body (not every simulator's). A GET carries no body (GET
      // /sandbox/clock, the event feed, the console's page and files); fetch refuses to send one with GET.
      const response = await server.sendRaw(operation.method.toUpperCase(), path, operation.method === 'get' ? {} : { body: {} });
      if (path.startsWith('/sandbox/ramp/') || path.startsWith('/ramp/')) expectPlainError(response, 403);
      else expectProblem(response, 403, 'forbidden');
    }
  });

  it('refuses sandbox keys and serves production ones', async () => {
    expect(server.key.startsWith('api_prod:')).toBe(true);
    expectStatus(await organizations(server.api), 200);
    const sand = server.key.replace('api_prod:', 'api_sand:');
    expect(expectProblem(await organizations(server.as(sand)), 401, 'unauthorized').detail).toMatch(/sandbox/);
  });
});
