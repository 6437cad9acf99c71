/**
 * The console's way to the API: `@ramp/client` (client/index.ts), the partner SDK, on this
 * page's own origin, so the console calls exactly the documented operations a partner's code
 * calls. Failures become text a person reads: the problem's title, status and detail, and
 * each field's error.
 */
import { createRampClient, type RampClient } from '../client/index.ts';
import type { Schema } from '../client/types.ts';

export type Ramp = RampClient;
export type { Schema };

/** The key lives in this tab only (sessionStorage): gone when the tab closes, never in a URL. */
const keyItem = 'ramp-console-api-key';
export const storedKey = () => sessionStorage.getItem(keyItem);
export const storeKey = (key: string | null) => (key === null ? sessionStorage.removeItem(keyItem) : sessionStorage.setItem(keyItem, key));

export function connect(apiKey: string): Ramp {
  // No retries: a click shows its answer at once, the refusals included.
  return createRampClient({ baseUrl: location.origin, apiKey, retry: false });
}

/** An answer that is not a success, as a person reads it. */
export class Failure extends Error {
  constructor(
    readonly title: string,
    readonly lines: string[],
    readonly status?: number,
  ) {
    super([title, ...lines].join(' — '));
  }
}

type Json = Record<string, unknown>;

export function describe(body: unknown, response: Response): Failure {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Json;
  if (typeof b.type === 'string' && typeof b.title === 'string') {
    // RFC 9457 problem details (v2): the slug is the last segment of `type`.
    const fields = Array.isArray(b.errors) ? (b.errors as Json[]).map((e) => `${String(e.pointer ?? '')}: ${readable(String(e.detail ?? ''))}`) : [];
    const missing = Array.isArray(b.missing) ? [`missing: ${(b.missing as unknown[]).join(', ')}`] : [];
    const slug = b.type.slice(b.type.lastIndexOf('/') + 1);
    return new Failure(`${b.title} (${response.status} ${slug})`, [String(b.detail ?? ''), ...fields, ...missing].filter(Boolean), response.status);
  }
  if (typeof b.error === 'string') {
    // v1 and lookup: `{"error": "…"}`, v1 validation with `details`.
    const details = Array.isArray(b.details) ? (b.details as Json[]).map((d) => Object.values(d).join(': ')) : [];
    return new Failure(`Error ${response.status}`, [b.error, ...details], response.status);
  }
  return new Failure(`Error ${response.status}`, [response.statusText || 'The sandbox answered without details.'], response.status);
}

/** A validator's regular expression says nothing to a person: the field's hint says the form. */
const readable = (detail: string) => detail.replace(/^must match pattern ".*"$/, 'is not in the expected form');

/** A stored answer (the request log's `responseBody`) as a Failure, when it is one. */
export function failureOf(status: number, text: string | null): Failure | undefined {
  if (status < 400) return undefined;
  let body: unknown;
  try {
    body = text === null ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return describe(body, { status, statusText: '' } as Response);
}

/** The data of a successful answer, or a Failure. */
export async function ask<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    if (error instanceof Failure) throw error;
    throw new Failure('The sandbox could not be reached', [(error as Error).message || 'network error']);
  }
  if (!result.response.ok) throw describe(result.error, result.response);
  return result.data as T;
}

export const formatTime = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }) : '—');

/** A JSON text indented for reading; the text itself when it is not JSON. */
export function formatJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
