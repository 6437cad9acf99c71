/**
 * Every documented error that the request alone causes, on every operation that documents
 * it, derived from the contract: 401 without an API key, 400 for a JSON body that does not
 * parse, 415 for a body of another media type and 413 for one over the limit. Each answer
 * has the documented status in its surface's format; under `npm run test:prism` Prism checks
 * each against the schema documented for it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyLimit } from '../../server/app.ts';
import { loadContract, type ContractOperation } from '../../server/contract.ts';
import { surfaceOf } from '../../server/errors.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const contract = loadContract();
type Json = Record<string, any>;

const operationOf = (o: ContractOperation): Json => contract.document.paths[o.path][o.method];
const documents = (o: ContractOperation, status: number) => String(status) in (operationOf(o).responses ?? {});
/** The media types documented for one response of an operation. */
function documentedMediaTypes(o: ContractOperation, status: number): string[] {
  let response: Json = operationOf(o).responses[String(status)];
  if (typeof response.$ref === 'string') response = contract.document.components.responses[response.$ref.split('/').pop()!];
  return Object.keys(response.content ?? {});
}
const takesJson = (o: ContractOperation) => 'application/json' in (operationOf(o).requestBody?.content ?? {});

/** A request that alone causes the error, and the operations that document it. */
const cases: {
  status: number;
  cause: string;
  applies: (o: ContractOperation) => boolean;
  request: (s: TestServer) => { key: string | null; headers?: Record<string, string>; raw?: string };
  /** Every path parameter names nothing that exists. */
  unknownIds?: true;
}[] = [
  { status: 401, cause: 'no API key', applies: (o) => !o.isPublic, request: () => ({ key: null }) },
  { status: 400, cause: 'a JSON body that does not parse', applies: takesJson, request: () => ({ key: undefined as never, headers: { 'Content-Type': 'application/json' }, raw: '{"unfinished": ' }) },
  { status: 415, cause: 'a text/plain body', applies: (o) => operationOf(o).requestBody !== undefined, request: () => ({ key: undefined as never, headers: { 'Content-Type': 'text/plain' }, raw: 'plain text' }) },
  {
    status: 413,
    cause: `a JSON body over ${bodyLimit}`,
    applies: takesJson,
    request: () => ({ key: undefined as never, headers: { 'Content-Type': 'application/json' }, raw: JSON.stringify({ padding: 'x'.repeat(300 * 1024) }) }),
  },
  {
    status: 404,
    cause: 'ids that name nothing',
    // Without a body to validate first: the lookup of the ids is what answers.
    applies: (o) => o.path.includes('{') && !operationOf(o).requestBody?.required,
    request: () => ({ key: undefined as never }),
    unknownIds: true,
  },
];

/** The operation's path with its parameters filled: the caller's own organization and fresh ids, or ids of nothing. */
function pathOf(o: ContractOperation, server: TestServer, unknownIds = false): string {
  return o.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (name === 'identifier') return unknownIds ? 'NOSUCHTOKEN' : 'CETES';
    return (name === 'organizationId' || name === 'org_id') && !unknownIds ? server.partnerId : randomUUID();
  });
}

/** The surface's error format (seed part 7). */
function expectFormat(o: ContractOperation, status: number, body: Json | undefined, contentType: string | null, where: string) {
  const surface = surfaceOf(o.path);
  if (documentedMediaTypes(o, status).every((type) => type === 'text/html')) {
    // The sign-in page answers its errors as a page.
    expect(contentType, where).toMatch(/^text\/html/);
  } else if (surface === 'v2') {
    expect(contentType, where).toMatch(/^application\/problem\+json/);
    expect(body, where).toMatchObject({ type: expect.stringMatching(/^https:\/\/docs\.ramp\.example\/errors\//), title: expect.any(String), status: expect.any(Number), detail: expect.any(String) });
  } else if (surface === 'auth') {
    expect(body, where).toMatchObject({ error: expect.any(String), error_description: expect.any(String) });
  } else if (o.operationId === 'v1SubmitCustomerKyc' && body && 'details' in body) {
    // The v1 KYC submission lists what is wrong in its body (server/submissionErrors.ts).
    expect(body, where).toEqual({ error: expect.any(String), details: [{ field: expect.any(String), message: expect.any(String) }] });
  } else {
    expect(body, where).toEqual({ error: expect.any(String) });
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
        const { key, headers, raw } = c.request(server);
        const response = await server.call(o.method.toUpperCase(), pathOf(o, server, c.unknownIds), { key: key === undefined ? undefined : key, headers, raw });
        const where = `${o.operationId} (${o.method.toUpperCase()} ${o.path}): ${response.text_.slice(0, 300)}`;
        expect(response.status, where).toBe(c.status);
        expectFormat(o, c.status, response.json_, response.headers.get('content-type'), where);
      }
    });
  }
});
