/**
 * The one typed client of the HTTP tests: `@ramp/client` (openapi-fetch over
 * generated/types/ramp.ts) pointed at a test server, so the path, its parameters, the body a
 * test sends and every field it reads of the answer are checked by `tsc`. A field renamed in
 * the contract fails the type check, not a run.
 *
 *   const quote = expectStatus(await server.api.POST('/organization/{organizationId}/quote', {
 *     params: { path: { organizationId } }, body: { type: 'onramp', … },
 *   }), 201);
 *   quote.quoteId; // string, from the contract's Quote
 *
 * Tests of refused input (a body the contract forbids, a wrong type, a raw string, a missing
 * header) cannot be written through a typed client, by design: they use `sendRaw` (below), whose
 * answer is `unknown` until an error helper (test/support/errors.ts) checks it.
 *
 * Retries are off: a test sees the server's first answer (a 429 or a 503 is what it asserts).
 */
import http from 'node:http';
import { createRampClient, type operations, type RampClient } from '../../client/index.ts';

export type Api = RampClient;

/** What every typed call resolves to: openapi-fetch's `{ data, error, response }`. */
export interface Answer {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** A client of the server at `url` acting with `key` (`null`: no key, for public operations and sign-in). */
export function apiClient(url: string, key: string | null): Api {
  return createRampClient({ baseUrl: url, retry: false, ...(key === null ? {} : { apiKey: key }) });
}

/** Why an answer was not the one expected: its status and body, for the assertion message. */
export function describeAnswer(answer: Answer): string {
  const body = answer.error ?? answer.data;
  return `${answer.response.status} ${typeof body === 'string' ? body : JSON.stringify(body)}`;
}

/**
 * Asserts the answer's status and returns its body, typed as the operation's success body.
 * A typed call that is expected to fail is checked by errors.ts (`expectProblem`, …) instead.
 */
export function expectStatus<A extends Answer>(answer: A, status: number): NonNullable<A['data']> {
  if (answer.response.status !== status) throw new Error(`expected ${status}, got ${describeAnswer(answer)} (${answer.response.url})`);
  return answer.data as NonNullable<A['data']>;
}

/** What `sendRaw` answers: the response (its body read), the text as sent and the JSON parsed from it, unchecked. */
export type RawAnswer = Response & {
  text_: string;
  /** The body parsed as JSON (undefined when it is not JSON): `unknown` until a helper checks it. */
  json_: unknown;
};

export interface RawRequest {
  /** A value sent as JSON, whatever the contract says of it. */
  body?: unknown;
  /** The body exactly as written (a broken JSON document, a form, a huge string). */
  raw?: string;
  headers?: Record<string, string>;
  /** The API key: the server's partner by default, `null` for none. */
  key?: string | null;
  /**
   * Send the path byte for byte (node:http) instead of through fetch. A WHATWG URL client
   * (fetch, and every client generated from the contract) removes `.` and `..` segments, in
   * any spelling (`%2E`, `%2e%2E`), before sending: `/sandbox/console/%2E` leaves as
   * `/sandbox/console/`. Only a raw HTTP client puts such a segment on the wire, and it goes
   * to the test server itself, never through a proxy that would remove it too (test:prism).
   * The same holds for a query name a proxy reads into an object and drops (`__proto__`).
   */
  verbatimPath?: boolean;
}

/**
 * The escape hatch for deliberately bad requests only: any method, any path, any body, any
 * headers. Its answer is not typed; read it with test/support/errors.ts.
 */
export async function sendRaw(url: string, defaultKey: string, method: string, path: string, o: RawRequest = {}): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...o.headers };
  const key = o.key === undefined ? defaultKey : o.key;
  if (key !== null && !('authorization' in headers) && !('Authorization' in headers)) headers.Authorization = key;
  let body: string | undefined = o.raw;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = o.verbatimPath ? await sendVerbatim(url, method, path, headers, body) : await fetch(url + path, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  return Object.assign(response, { text_: text, json_: json });
}

/** One request with its path as written, its answer as a fetch Response. */
function sendVerbatim(url: string, method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<Response> {
  const { hostname, port } = new URL(url);
  const sent = body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, method, path, headers: sent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) answerHeaders.append(name, v);
        const bodyless = res.statusCode === 204 || res.statusCode === 304 || method === 'HEAD';
        resolve(new Response(bodyless ? null : Buffer.concat(chunks), { status: res.statusCode, headers: answerHeaders }));
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** The JSON request body of an operation, by its operationId: `RequestBody<'createWallet'>`. */
export type RequestBody<Op extends keyof operations> = operations[Op] extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;
