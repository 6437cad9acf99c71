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
  const response = await fetch(url + path, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  return Object.assign(response, { text_: text, json_: json });
}

/** The JSON request body of an operation, by its operationId: `RequestBody<'createWallet'>`. */
export type RequestBody<Op extends keyof operations> = operations[Op] extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;
