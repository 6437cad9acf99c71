/**
 * The error formats of each document's Errors section, checked the same way by every test: v2 answers problem
 * details from the contract's catalogue; v1 and lookup answer `{"error": "<message>"}`.
 */
import { expect } from 'vitest';
import { loadContract } from '../../server/shared/contract.ts';
import type { Schema, Schemas } from '../../client/index.ts';
import type { ProblemSlug } from '../../server/shared/problems.ts';

/** The contract's problem schema of a slug (`validation-error` → `ValidationErrorProblem`, with its `errors`). */
export type ProblemOf<S extends string> = S extends ProblemSlug ? Extract<Schemas[keyof Schemas], { type: `${string}/errors/${S}` }> : Schemas[Extract<keyof Schemas, `${string}Problem`>];

const { problems } = loadContract();
const typePrefix = 'https://docs.ramp.example/errors/';

/** An answer of `sendRaw` (its parsed `json_`), or of the typed client (`{ response, error }`). */
type Answer = { status: number; headers: Headers; json_: unknown; text_?: string } | { response: Response; error?: unknown; data?: unknown };

/** The fields an error body may carry, read only after the checks below name its format. */
type ErrorBody = { type?: unknown; detail?: unknown; instance?: unknown; error?: unknown } | undefined;

function view(answer: Answer): { status: number; headers: Headers; body: ErrorBody; where: string } {
  if ('response' in answer) {
    const body = answer.error ?? answer.data;
    return { status: answer.response.status, headers: answer.response.headers, body: body as ErrorBody, where: typeof body === 'string' ? body : JSON.stringify(body) };
  }
  return { status: answer.status, headers: answer.headers, body: answer.json_ as ErrorBody, where: answer.text_ ?? JSON.stringify(answer.json_) };
}

/** The slug of a v2 problem answer: the last segment of its type. */
export const slugOf = (answer: Answer) => String(view(answer).body?.type ?? '').split('/').pop();

/**
 * What an error answer tells a client, the ids it names taken out: its status and its problem
 * type (v2), plain error (v1, lookup) or text. An object a key cannot reach must answer with the
 * shape of one that does not exist.
 */
export function errorShape(answer: Answer): string {
  const { status, body, where } = view(answer);
  return `${status} ${String(body?.type ?? body?.error ?? where).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')}`;
}

/** The catalogue's problem of this slug, exactly: status, type and fixed title, a detail and a fresh instance. */
export function expectProblem<S extends string>(answer: Answer, status: number, slug: S, where?: string): ProblemOf<S> {
  const { status: actual, headers, body, where: text } = view(answer);
  where ??= text;
  // A runtime string (documented answers are read from the contract): checked just below.
  const problem = problems.get(slug as ProblemSlug);
  expect(problem, `${slug} is in the contract's problem catalogue`).toBeDefined();
  expect(problem!.status, `the catalogue's status of ${slug}`).toBe(status);
  expect(actual, where).toBe(status);
  expect(headers.get('content-type'), where).toMatch(/^application\/problem\+json/);
  expect(body, where).toMatchObject({ type: `${typePrefix}${slug}`, title: problem!.title, status, detail: expect.any(String) });
  expect(String(body?.detail).length, where).toBeGreaterThan(0);
  expect(body?.instance, where).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
  // Checked just above: the body is this slug's problem.
  return body as ProblemOf<S>;
}

/** Whatever problem of the catalogue the answer names: its status must be the answer's. */
export function expectSomeProblem(answer: Answer, where?: string) {
  const { status, body } = view(answer);
  const type = String(body?.type ?? '');
  expect(type.startsWith(typePrefix), `${where}: type ${type}`).toBe(true);
  expectProblem(answer, status, type.slice(typePrefix.length), where);
}

/** `/auth/token`: 400 with the OAuth error (RFC 6749 section 5.2), not stored by any cache. */
export function expectOAuthError(answer: Answer, error: Schema<'OAuthError'>['error'], where?: string): Schema<'OAuthError'> {
  const { status, headers, body, where: text } = view(answer);
  where ??= text;
  expect(status, where).toBe(400);
  expect(headers.get('cache-control'), where).toBe('no-store');
  expect(body, where).toEqual({ error, error_description: expect.any(String) });
  // Checked just above: the contract's OAuthError.
  return body as Schema<'OAuthError'>;
}

/** v1 and lookup: `{"error": "<message>"}` as JSON, nothing else. */
export function expectPlainError(answer: Answer, status: number, where?: string): Schema<'V1Error'> {
  const { status: actual, headers, body, where: text } = view(answer);
  where ??= text;
  expect(actual, where).toBe(status);
  expect(headers.get('content-type'), where).toMatch(/^application\/json/);
  expect(body, where).toEqual({ error: expect.any(String) });
  expect(String(body?.error).length, where).toBeGreaterThan(0);
  // Checked just above: `{"error": "<message>"}`.
  return body as Schema<'V1Error'>;
}

/**
 * v1's field-by-field refusal (the contract's V1ValidationError, e.g. `v1SubmitCustomerKyc`'s
 * 400): `{"error": "<message>", "details": [{"field", "message"}, …]}` with at least one field.
 */
export function expectV1ValidationError(answer: Answer, status: number, where?: string): Schema<'V1ValidationError'> {
  const { status: actual, headers, body, where: text } = view(answer);
  where ??= text;
  expect(actual, where).toBe(status);
  expect(headers.get('content-type'), where).toMatch(/^application\/json/);
  expect(body, where).toEqual({ error: expect.any(String), details: expect.any(Array) });
  const { details } = body as { details: unknown[] };
  expect(details.length, where).toBeGreaterThan(0);
  for (const detail of details) expect(detail, where).toEqual({ field: expect.any(String), message: expect.any(String) });
  // Checked just above: the contract's V1ValidationError.
  return body as Schema<'V1ValidationError'>;
}

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const instant = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g;
const clabe = /\b\d{18}\b/g;

/** Every problem example of the reference, by slug, as a pattern: its ids and instants stand for any. */
const documentedDetails = (() => {
  const bySlug = new Map<string, RegExp[]>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const value = (node as { value?: { type?: unknown; detail?: unknown } }).value;
    if (typeof value?.type === 'string' && value.type.startsWith(typePrefix) && typeof value.detail === 'string') {
      // The text between ids, CLABEs and instants as written, each of those as its pattern.
      const token = new RegExp(`(?:${uuid.source})|(?:${instant.source})|(?:${clabe.source})`, 'gi');
      const parts = value.detail.split(token).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      const tokens = value.detail.match(token) ?? [];
      const patternOf = (text: string) => (text.includes('T') ? instant : /^\d{18}$/.test(text) ? clabe : uuid).source;
      const pattern = parts.map((part, i) => part + (i < tokens.length ? patternOf(tokens[i]!) : '')).join('');
      const slug = value.type.slice(typePrefix.length);
      bySlug.set(slug, [...(bySlug.get(slug) ?? []), new RegExp(`^${pattern}$`, 'i')]);
      return;
    }
    for (const child of Object.values(node)) walk(child);
  };
  walk(loadContract().document);
  return bySlug;
})();

/**
 * A problem's detail is worded as one of the reference's examples of its type, the ids,
 * CLABEs and instants being this answer's: what a partner reads in the reference is what the sandbox says.
 */
export function expectDocumentedDetail(problem: { type: string; detail: string }): void {
  const slug = problem.type.slice(typePrefix.length);
  const worded = documentedDetails.get(slug) ?? [];
  expect(worded.some((pattern) => pattern.test(problem.detail)), `${problem.detail}\nis worded as none of the ${worded.length} examples of ${slug}`).toBe(true);
}
