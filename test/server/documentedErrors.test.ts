/**
 * Every documented error that the request alone causes, on every operation that documents
 * it, derived from the contract: 401 without an API key, 400 for a JSON body that does not
 * parse or a path id that is not one, 415 for a body of another media type, 413 for one over
 * the limit, 404 for ids of nothing, and 429 past the read rate limit; and 503 while the
 * database cannot be reached (on PostgreSQL, its connections cut). Each answer has the
 * documented status in its surface's format; under `npm run test:prism` Prism checks each
 * against the schema documented for it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bodyLimitBytes } from '../../server/shared/requestLimits.ts';
import { loadContract, type ContractOperation } from '../../server/shared/contract.ts';
import { surfaceOf } from '../../server/shared/contract.ts';
import { deref, loadBundle, type Json } from '../support/documents.ts';
import { expectStatus, type RawAnswer } from '../support/api.ts';
import { startServerBehindLink } from '../support/databaseLink.ts';
import { expectPlainError, expectProblem, expectSomeProblem, expectV1ValidationError } from '../support/errors.ts';
import { errorPageParts } from '../support/partner.ts';
import { rawRequest } from '../support/process.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { waitBudget } from '../support/wait.ts';

const contract = loadContract();

const operationOf = (o: ContractOperation): Json => contract.document.paths[o.path][o.method];
const requestBodyOf = (o: ContractOperation): Json | undefined => operationOf(o).requestBody && deref(contract.document, operationOf(o).requestBody);
const documents = (o: ContractOperation, status: number) => String(status) in (operationOf(o).responses ?? {});
/** The media types documented for one response of an operation. */
function documentedMediaTypes(o: ContractOperation, status: number): string[] {
  return Object.keys(deref(contract.document, operationOf(o).responses[String(status)]).content ?? {});
}
const takesJson = (o: ContractOperation) => 'application/json' in (requestBodyOf(o)?.content ?? {});
const takesForm = (o: ContractOperation) => 'application/x-www-form-urlencoded' in (requestBodyOf(o)?.content ?? {});

/** The first example of the operation's JSON body: a body it accepts as valid. */
function exampleBody(o: ContractOperation): string | undefined {
  const examples = requestBodyOf(o)?.content?.['application/json']?.examples as Json | undefined;
  const first = examples && Object.values<Json>(examples)[0];
  return first ? JSON.stringify(deref(contract.document, first).value) : undefined;
}
const json = { 'Content-Type': 'application/json' };

/** A request that alone causes the error, and the operations that document it. */
const cases: {
  status: number;
  cause: string;
  applies: (o: ContractOperation) => boolean;
  /** `key: null` sends none; without `key`, the server's own. */
  request: (o: ContractOperation) => { key?: null; headers?: Record<string, string>; raw?: string; query?: string };
  /** How the path parameters are filled (default: the caller's organization, fresh ids). */
  ids?: 'unknown' | 'malformed';
}[] = [
  { status: 401, cause: 'no API key', applies: (o) => !o.isPublic, request: () => ({ key: null }) },
  { status: 400, cause: 'a JSON body that does not parse', applies: takesJson, request: () => ({ headers: json, raw: '{"unfinished": ' }) },
  { status: 415, cause: 'a text/plain body', applies: (o) => requestBodyOf(o) !== undefined, request: () => ({ headers: { 'Content-Type': 'text/plain' }, raw: 'plain text' }) },
  { status: 413, cause: `a JSON body over ${bodyLimitBytes / 1024} KiB`, applies: takesJson, request: () => ({ headers: json, raw: JSON.stringify({ padding: 'x'.repeat(bodyLimitBytes) }) }) },
  {
    status: 404,
    cause: 'ids that name nothing',
    // With the body of the contract's example, so that the ids are what the answer is about.
    applies: (o) => o.path.includes('{') && (!requestBodyOf(o)?.required || exampleBody(o) !== undefined),
    request: (o) => (exampleBody(o) ? { headers: json, raw: exampleBody(o) } : {}),
    ids: 'unknown',
  },
  { status: 400, cause: 'a path id that is not a UUID', applies: (o) => uuidParameters(o).length > 0, request: () => ({}), ids: 'malformed' },
  {
    status: 400,
    cause: 'a query parameter the operation does not take',
    // The app pages pass any query on to the page.
    applies: (o) => !takesAnyQuery(o),
    request: (o) => ({ query: 'no_such_parameter=1', ...(exampleBody(o) ? { headers: json, raw: exampleBody(o) } : {}) }),
  },
];

/** Whether the operation takes a free-form query object (any parameter). */
function takesAnyQuery(o: ContractOperation): boolean {
  return parametersOf(o).some((p) => p.in === 'query' && p.schema?.type === 'object');
}

/** The operation's parameters, its path's included, references resolved. */
function parametersOf(o: ContractOperation): Json[] {
  const item = contract.document.paths[o.path];
  return [...(item.parameters ?? []), ...(operationOf(o).parameters ?? [])].map((p: Json) => deref(contract.document, p));
}

/** The names of an operation's path parameters that are UUIDs. */
function uuidParameters(o: ContractOperation): string[] {
  return parametersOf(o).filter((p) => p.in === 'path' && p.schema?.format === 'uuid').map((p) => p.name);
}

/**
 * The operation's path with its parameters filled: the caller's own organization and fresh
 * ids; ids of nothing (`unknown`); or its last UUID parameter not a UUID (`malformed`).
 */
function pathOf(o: ContractOperation, server: TestServer, ids?: 'unknown' | 'malformed'): string {
  const malformed = ids === 'malformed' ? uuidParameters(o).at(-1) : undefined;
  return o.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (name === malformed) return 'not-a-uuid';
    if (name === 'identifier') return ids === 'unknown' ? 'NOSUCHTOKEN' : 'CETES';
    return (name === 'organizationId' || name === 'org_id') && ids !== 'unknown' ? server.partnerId : randomUUID();
  });
}

/** The example bodies of an operation's answer with `status` in its JSON media types, a problem's `instance` left out (each answer has its own). */
function documentedJsonExamples(o: ContractOperation, status: number): unknown[] {
  const content = deref(contract.document, operationOf(o).responses[String(status)]).content ?? {};
  return Object.entries(content as Record<string, Json>)
    .filter(([type]) => /json$/.test(type))
    .flatMap(([, media]) => (Object.values(media.examples ?? {}) as Json[]).map((example) => problemSansInstance(deref(contract.document, example).value)));
}
const problemSansInstance = (body: unknown) => (body && typeof body === 'object' && 'instance' in body ? { ...body, instance: undefined } : body);

/** Whether a v1 error body lists its fields (V1ValidationError, server/http/submissionErrors.ts). */
const listsFields = (json: unknown) => typeof json === 'object' && json !== null && 'details' in json;

/** The surface's error format (each document's Errors section). */
function expectFormat(o: ContractOperation, response: RawAnswer, where: string) {
  const surface = surfaceOf(o.path);
  if (documentedMediaTypes(o, response.status).every((type) => type === 'text/html')) {
    // The sign-in page answers its errors as a page.
    expect(response.headers.get('content-type'), where).toMatch(/^text\/html/);
  } else if (surface === 'v2') {
    expectSomeProblem(response, where);
  } else if (surface === 'auth') {
    expect(response.json_, where).toMatchObject({ error: expect.any(String), error_description: expect.any(String) });
  } else if (o.operationId === 'v1SubmitCustomerKyc' && listsFields(response.json_)) {
    // The v1 KYC submission lists what is wrong in its body (server/http/submissionErrors.ts).
    expectV1ValidationError(response, response.status, where);
  } else {
    expectPlainError(response, response.status, where);
  }
}

describe('documented errors a request alone causes, on every operation that documents them', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  for (const c of cases) {
    const operations = contract.operations.filter((o) => c.applies(o) && documents(o, c.status));
    it(`${c.status} for ${c.cause} (${operations.length} operations)`, async () => {
      expect(operations.length).toBeGreaterThan(0);
      for (const o of operations) {
        const { query, ...request } = c.request(o);
        // Requests the contract refuses, to every operation by its method and path as written: only sendRaw sends them.
        const response = await server.sendRaw(o.method.toUpperCase(), pathOf(o, server, c.ids) + (query ? `?${query}` : ''), request);
        const where = `${o.operationId} (${o.method.toUpperCase()} ${o.path}): ${response.text_.slice(0, 300)}`;
        expect(response.status, where).toBe(c.status);
        expectFormat(o, response, where);
      }
    });
  }

  it('429 past the read rate limit, with Retry-After, on every v2 read that documents it', async () => {
    const limited = await startTestServer({ env: { RAMP_RATE_LIMIT_READS_PER_SECOND: '2' } });
    try {
      const reads = contract.operations.filter((o) => o.method === 'get' && !o.isPublic && surfaceOf(o.path) === 'v2' && documents(o, 429));
      expect(reads.length).toBeGreaterThan(10);
      for (const o of reads) {
        // The limit counts every read of the organization in a window: a few reads pass it.
        let response: RawAnswer | undefined;
        for (let i = 0; i < 6 && response?.status !== 429; i++) response = await limited.sendRaw('GET', pathOf(o, limited));
        const where = `${o.operationId} (GET ${o.path}): ${response!.text_.slice(0, 300)}`;
        expect(response!.status, where).toBe(429);
        expect(Number(response!.headers.get('retry-after')), where).toBeGreaterThan(0);
        expectFormat(o, response!, where);
      }
    } finally {
      await limited.close();
    }
  });
});

/** The strings no request may carry (server/shared/requestLimits.ts) and what the answer says of each. */
const refusedStrings = [
  { name: 'a NUL', value: 'a\u0000b', reason: /must not contain the NUL character/ },
  { name: 'a lone surrogate', value: 'a\ud800b', reason: /must be well-formed Unicode/ },
];

/**
 * The operation's example body (or `{"note": …}`) with its first string replaced by `value`,
 * as JSON text (a lone surrogate is written as its `\ud800` escape), and that string's pointer.
 */
function bodyWithString(o: ContractOperation, value: string): { raw: string; pointer: string } {
  const body = JSON.parse(exampleBody(o) ?? '{"note": "x"}') as Json;
  const replace = (node: Json, at: string): string | undefined => {
    for (const [key, item] of Object.entries(node)) {
      const pointer = `${at}/${key}`;
      if (typeof item === 'string') {
        node[key] = value;
        return pointer;
      }
      const inner = item && typeof item === 'object' ? replace(item, pointer) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  const pointer = replace(body, '') ?? ((body.note = value), '/note');
  return { raw: JSON.stringify(body), pointer };
}

/**
 * The operation's parameters of one place, with whether each is free text: no format, and a
 * pattern, if any, that takes the sample value below without its NUL (`/auth/launch`'s origin);
 * a pattern that refuses it anyway (`listSandboxRequests`' `status`) refuses a NUL first.
 */
const parametersIn = (o: ContractOperation, place: 'query' | 'path') =>
  parametersOf(o)
    .filter((p) => p.in === place)
    .map((p) => ({
      name: p.name as string,
      freeText: (p.schema?.type === 'string' && !p.schema.format && !p.schema.enum && (!p.schema.pattern || new RegExp(p.schema.pattern, 'u').test('http://ab'))) || p.schema?.type === 'object',
    }));

/**
 * A 400 in the surface's documented format; where the refusal is the text rule's (not the
 * schema's, which sees some parameters first), it says why, and in a v2 body where.
 */
function expectTextRefused(o: ContractOperation, response: RawAnswer, where: string, reason: RegExp | undefined, pointer?: string) {
  expect(documents(o, 400), `${o.operationId} documents a 400`).toBe(true);
  expect(response.status, where).toBe(400);
  expectFormat(o, response, where);
  if (!reason) return;
  const surface = surfaceOf(o.path);
  if (/^text\/html/.test(response.headers.get('content-type') ?? '')) {
    expect(response.text_, where).toMatch(/<meta name="(oauth|app)-error" content="invalid_request">/);
    expect(response.text_, where).toMatch(reason);
  } else if (surface === 'v2' && pointer !== undefined) {
    expect(expectProblem(response, 400, 'validation-error', where).errors, where).toEqual([{ pointer, detail: expect.stringMatching(reason) }]);
  } else if (surface === 'v2') {
    expect(expectProblem(response, 400, 'invalid-request', where).detail, where).toMatch(reason);
  } else if (surface === 'auth') {
    expect(response.json_, where).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(reason) });
  } else if (listsFields(response.json_)) {
    // The v1 KYC submission lists its fields (server/http/submissionErrors.ts).
    expect(expectV1ValidationError(response, 400, where).details, where).toEqual([{ field: expect.any(String), message: expect.stringMatching(reason) }]);
  } else {
    expect(expectPlainError(response, 400, where).error, where).toMatch(reason);
  }
}

describe('every string a request carries is well-formed Unicode without NUL, on every operation', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());
  const call = (o: ContractOperation, path: string, request: { headers?: Record<string, string>; raw?: string; verbatimPath?: boolean } = {}) =>
    server.sendRaw(o.method.toUpperCase(), path, { ...request, ...(o.isPublic ? { key: null } : {}) });

  for (const refused of refusedStrings) {
    const operations = contract.operations.filter(takesJson);
    it(`400 for ${refused.name} in a JSON body (${operations.length} operations)`, async () => {
      expect(operations.length).toBeGreaterThan(30);
      for (const o of operations) {
        const { raw, pointer } = bodyWithString(o, refused.value);
        const response = await call(o, pathOf(o, server), { headers: json, raw });
        expectTextRefused(o, response, `${o.operationId} ${raw.slice(0, 120)}: ${response.text_.slice(0, 300)}`, refused.reason, pointer);
      }
    });
  }

  it('400 for a NUL in a form body', async () => {
    const operations = contract.operations.filter(takesForm);
    expect(operations.length).toBeGreaterThan(0);
    for (const o of operations) {
      const response = await call(o, pathOf(o, server), { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, raw: 'grant_type=refresh_token&refresh_token=rt_a%00b' });
      expectTextRefused(o, response, `${o.operationId}: ${response.text_.slice(0, 300)}`, refusedStrings[0]!.reason);
    }
  });

  for (const place of ['query', 'path'] as const) {
    const operations = contract.operations.filter((o) => parametersIn(o, place).length > 0);
    it(`400 for a NUL in a ${place} parameter (${operations.length} operations)`, async () => {
      expect(operations.length).toBeGreaterThan(0);
      expect(operations.some((o) => parametersIn(o, place).some((p) => p.freeText)), 'some parameter is free text').toBe(true);
      for (const o of operations) {
        // A free-text parameter if there is one: the schema refuses a NUL in any other first.
        const parameters = parametersIn(o, place);
        const parameter = parameters.find((p) => p.freeText) ?? parameters[0]!;
        const name = parameter.name === 'query' && place === 'query' ? 'amount' : parameter.name;
        // `http://a%00b` is also an origin as `GET /auth/launch`'s pattern sees one.
        const path = place === 'query' ? `${pathOf(o, server)}?${name}=http://a%00b` : pathOf(o, server).replace(/[^/]+$/, 'a%00b');
        const body = exampleBody(o) ? { headers: json, raw: exampleBody(o) } : {};
        // The path's last segment is its parameter's only where the template ends with it.
        if (place === 'path' && !o.path.endsWith(`{${parameter.name}}`)) continue;
        const response = await call(o, path, body);
        expectTextRefused(o, response, `${o.operationId} ${path}: ${response.text_.slice(0, 300)}`, parameter.freeText ? refusedStrings[0]!.reason : undefined);
      }
    });
  }

  it('400 for a NUL in a query parameter name, also one with brackets, on every operation', async () => {
    // The validator reads brackets in a name as an object's keys (`?[a=1`) and leaves out what
    // it cannot read that way: the refusal reads the query string as sent. The first name is
    // the one Schemathesis found answered 200 on GET /onramp.
    const names = ['%5Bl%5B%21p%C3%93%0C%00%C2%ADc', '%5Ba%00', 'a%5B%00%5D', 'a%00'];
    for (const o of contract.operations) {
      const body = exampleBody(o) ? { headers: json, raw: exampleBody(o) } : {};
      for (const name of names) {
        const path = `${pathOf(o, server)}?${name}=1`;
        const response = await call(o, path, body);
        // The refusal's words may be the validator's: it refuses some unknown names first.
        expectTextRefused(o, response, `${o.operationId} ${path}: ${response.text_.slice(0, 300)}`, undefined);
      }
      // Names an ordinary object already has (Schemathesis: `?__proto__=` was a 500 on GET /onramp),
      // sent as is to the server: a proxy that reads the query into an object (Prism's) drops `__proto__`.
      const path = `${pathOf(o, server)}?constructor=1&__proto__=%00`;
      const response = await call(o, path, { ...body, verbatimPath: true });
      expectTextRefused(o, response, `${o.operationId} ${path}: ${response.text_.slice(0, 300)}`, undefined);
    }
    // A route whose documented 400 lists details names where the refused parameter was.
    const kyc = contract.operations.find((o) => o.operationId === 'v1SubmitCustomerKyc')!;
    const answer = await call(kyc, `${pathOf(kyc, server)}?%5Ba%00=1`, { headers: json, raw: exampleBody(kyc)! });
    expect(expectV1ValidationError(answer, 400)).toEqual({ error: 'Invalid request', details: [{ field: 'query', message: 'A query parameter name must not contain the NUL character (U+0000).' }] });
  });

  it('a NUL in a header never reaches the service: the HTTP parser answers 400', async () => {
    const port = new URL(server.url).port;
    const response = await rawRequest(Number(port), `GET /organizations HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${server.key}\u0000\r\nConnection: close\r\n\r\n`);
    expect(response.status, response.text).toBe(400);
  });
});

/** One request with no body headers at all, as `curl -X POST` sends it, or with `Content-Length: 0`. */
async function bodyless(server: TestServer, o: ContractOperation, path: string, length: 'absent' | 'zero') {
  const { port } = new URL(server.url);
  const headers = [`Host: localhost`, 'Connection: close', ...(o.isPublic ? [] : [`Authorization: ${server.key}`]), ...(length === 'zero' ? ['Content-Length: 0'] : [])];
  const { text } = await rawRequest(Number(port), `${o.method.toUpperCase()} ${path} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const body = Buffer.from(rest.join('\r\n\r\n'), 'latin1').toString('utf8');
  let parsed: unknown;
  try { parsed = JSON.parse(body); } catch { parsed = undefined; }
  const response = new Response(null, { status: Number(statusLine.split(' ')[1]), headers: lines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string]) });
  return Object.assign(response, { json_: parsed, text_: body }) satisfies RawAnswer;
}

describe('a request with no body is one with an empty body, on every operation that takes one', () => {
  for (const env of ['sandbox', 'production'] as const) {
    it(`answers the same as to an empty body, never a 5xx (${env})`, async () => {
      const server = await startTestServer({ env: { RAMP_ENV: env } });
      try {
        const operations = contract.operations.filter((o) => requestBodyOf(o) !== undefined);
        expect(operations.length).toBeGreaterThan(30);
        for (const o of operations) {
          const path = pathOf(o, server);
          const absent = await bodyless(server, o, path, 'absent');
          const empty = await bodyless(server, o, path, 'zero');
          const where = `${o.operationId} (${o.method.toUpperCase()} ${o.path}): ${absent.text_.slice(0, 300)}`;
          expect(absent.status, where).toBeLessThan(500);
          expect(documents(o, absent.status), where).toBe(true);
          if (absent.status >= 400) expectFormat(o, absent, where);
          const withoutInstance = (text: string) => text.replace(/urn:uuid:[0-9a-f-]{36}/g, 'urn:uuid:…');
          // A creation with an optional body (createSandboxPartner) makes a new object each time: the same but for its ids, key and times.
          const made = (text: string) => absent.status !== 201 ? text : text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '…').replace(/api_sand:[0-9a-f]+:/g, 'api_sand:…:').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '…');
          expect({ status: absent.status, body: made(withoutInstance(absent.text_)) }, where).toEqual({ status: empty.status, body: made(withoutInstance(empty.text_)) });
        }
      } finally {
        await server.close();
      }
    });
  }
});

/** A session cookie takes an app page as far as the database (sign-in's example bodies carry a JWT or a refresh token). */
const reachingTheDatabase = (o: ContractOperation): Record<string, string> =>
  operationOf(o).tags?.includes('App pages') ? { Cookie: 'ramp_session=s_9Gm2Qx7LwV4kR8tN1bYc5ZpH3eJ6uDfA' } : {};

describe.skipIf(!process.env.DATABASE_URL)('503 while the database is unreachable, on every operation that meets it (PostgreSQL)', () => {
  let behind: Awaited<ReturnType<typeof startServerBehindLink>> | undefined;
  beforeAll(async () => {
    behind = await startServerBehindLink(process.env.DATABASE_URL!);
  });
  afterAll(() => behind?.close());

  it('answers every operation a documented status, a 503 in its surface\'s format with Retry-After, and serves again once the database is back', async () => {
    const { server, link } = behind!;
    link.cut();
    const unavailable: string[] = [];
    const answered = new Map<string, string>();
    for (const o of contract.operations) {
      const headers = { ...(exampleBody(o) ? json : {}), ...reachingTheDatabase(o) };
      const response = await server.sendRaw(o.method.toUpperCase(), pathOf(o, server), { headers, raw: exampleBody(o), ...(o.isPublic ? { key: null } : {}) });
      const where = `${o.operationId} (${o.method.toUpperCase()} ${o.path}): ${response.status} ${response.text_.slice(0, 300)}`;
      expect(documents(o, response.status), where).toBe(true);
      // An API key is looked up in the database before anything else.
      if (response.status >= 500 || !o.isPublic) expect(response.status, where).toBe(503);
      if (response.status !== 503) continue;
      expectFormat(o, response, where);
      expect(response.headers.get('retry-after'), where).toBe('1');
      if (response.json_ !== undefined) expect(documentedJsonExamples(o, 503), where).toContainEqual(problemSansInstance(response.json_));
      unavailable.push(o.operationId);
      answered.set(o.operationId, response.text_);
    }
    // Sign-in answers what its reference shows, word for word (its 400s: test/features/auth).
    const auth = loadBundle('auth').paths;
    const tokenExample = auth['/auth/token'].post.responses['503'].content['application/json'].examples.DatabaseUnavailable.value;
    expect(JSON.parse(answered.get('createToken')!)).toEqual(tokenExample);
    const pageExample = auth['/auth/launch'].post.responses['503'].content['text/html'].examples.DatabaseUnavailable.value;
    expect(errorPageParts(pageExample).description).toBeDefined();
    expect(errorPageParts(answered.get('launchSession')!)).toEqual(errorPageParts(pageExample));
    // Sign-in, the app pages and readiness meet it too; the lookups and the launch page never read the database.
    expect(unavailable).toEqual(expect.arrayContaining(['createToken', 'launchSession', 'getKycPage', 'getAccountPage', 'getHealth']));
    expect(unavailable).not.toContain('listCountryCodes');
    // Logged once, not once per request; no internal error.
    expect(server.logs.filter((line) => line.includes('the database is unavailable'))).toHaveLength(1);
    expect(server.logs.filter((line) => line.includes('internal error'))).toEqual([]);
    link.restore();
    const restored = Date.now();
    await vi.waitFor(async () => expectStatus(await server.api.GET('/organizations'), 200), { timeout: waitBudget, interval: 50 });
    expect(Date.now() - restored, 'served again within 5 s').toBeLessThan(5000);
    await vi.waitFor(() => expect(server.logs.filter((line) => line.includes('the database is available again'))).toHaveLength(1), { timeout: waitBudget, interval: 50 });
  });
});
