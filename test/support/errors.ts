/**
 * The error formats of each document's Errors section, checked the same way by every test: v2 answers problem
 * details from the contract's catalogue; v1 and lookup answer `{"error": "<message>"}`.
 */
import { expect } from 'vitest';
import { loadContract } from '../../server/shared/contract.ts';
import type { ProblemSlug } from '../../server/shared/problems.ts';

const { problems } = loadContract();
const typePrefix = 'https://docs.ramp.example/errors/';

/** The slug of a v2 problem answer: the last segment of its type. */
export const slugOf = (response: { json_: any }) => String(response.json_?.type ?? '').split('/').pop();

type Answer = { status: number; headers: Headers; json_: any; text_?: string };

/** The catalogue's problem of this slug, exactly: status, type and fixed title, a detail and a fresh instance. */
export function expectProblem(response: Answer, status: number, slug: string, where = response.text_ ?? JSON.stringify(response.json_)) {
  // A runtime string (documented answers are read from the contract): checked just below.
  const problem = problems.get(slug as ProblemSlug);
  expect(problem, `${slug} is in the contract's problem catalogue`).toBeDefined();
  expect(problem!.status, `the catalogue's status of ${slug}`).toBe(status);
  expect(response.status, where).toBe(status);
  expect(response.headers.get('content-type'), where).toMatch(/^application\/problem\+json/);
  expect(response.json_, where).toMatchObject({ type: `${typePrefix}${slug}`, title: problem!.title, status, detail: expect.any(String) });
  expect(response.json_.detail.length, where).toBeGreaterThan(0);
  expect(response.json_.instance, where).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
}

/** Whatever problem of the catalogue the answer names: its status must be the answer's. */
export function expectSomeProblem(response: Answer, where?: string) {
  const type = String(response.json_?.type ?? '');
  expect(type.startsWith(typePrefix), `${where}: type ${type}`).toBe(true);
  expectProblem(response, response.status, type.slice(typePrefix.length), where);
}

/** v1 and lookup: `{"error": "<message>"}` as JSON, nothing else. */
export function expectPlainError(response: Answer, status: number, where = response.text_ ?? JSON.stringify(response.json_)) {
  expect(response.status, where).toBe(status);
  expect(response.headers.get('content-type'), where).toMatch(/^application\/json/);
  expect(response.json_, where).toEqual({ error: expect.any(String) });
  expect(response.json_.error.length, where).toBeGreaterThan(0);
}
