/**
 * Errors of the four surfaces as exceptions a partner can switch on:
 *
 *   RampProblem     v2 `application/problem+json` (RFC 9457): `slug`, `status`, `title`,
 *                   `detail`, `instance`, and `errors` / `required` / `missing` when the slug has them
 *   RampApiError    v1 `/ramp` and `/lookup`: `{"error": "…"}` (v1 validation adds `details`),
 *                   or a plain-text body
 *   RampOAuthError  `POST /auth/token`: RFC 6749 `error` and `error_description`
 *
 * All extend RampError (`status`, `body`, `response`). As the contract's Errors sections say: select on the slug (or the
 * OAuth code); a v1 or lookup message is for display and logs, so branch on `status` there.
 */
import type { Schema } from './types.ts';

export type ProblemFieldError = Schema<'ProblemFieldError'>;
export type V1FieldError = Schema<'V1FieldError'>;
export type OAuthErrorCode = Schema<'OAuthError'>['error'];

type Json = Record<string, unknown>;

export class RampError extends Error {
  override name = 'RampError';
  /** The HTTP status. */
  readonly status: number;
  /** The decoded body (JSON, or the text when it is not JSON), or undefined when empty. */
  readonly body: unknown;
  readonly response: Response | undefined;

  constructor(message: string, status: number, body: unknown, response?: Response) {
    super(message);
    this.status = status;
    this.body = body;
    this.response = response;
  }

  /**
   * The exception for an error result of the client (`const { error, response } = await
   * ramp.GET(…)`): a RampProblem, RampApiError or RampOAuthError by the body's shape.
   */
  static from(error: unknown, response: Response): RampError {
    return toRampError(error, response);
  }
}

/** A v2 problem (RFC 9457). `slug` is the last segment of `type`: `not-found`, `validation-error`, … */
export class RampProblem extends RampError {
  override name = 'RampProblem';
  readonly type: string;
  readonly slug: string;
  readonly title: string;
  readonly detail: string;
  readonly instance: string | undefined;
  /** `validation-error`: each offending field, as a JSON Pointer into the request and a message. */
  readonly errors: ProblemFieldError[] | undefined;
  /** `registration-info-required`: every registration field the route needs (JSON Pointers). */
  readonly required: string[] | undefined;
  /** `registration-info-required`: the fields still to send (JSON Pointers). */
  readonly missing: string[] | undefined;
  /** `rate-limit-exceeded`: seconds to wait, from `Retry-After`. */
  readonly retryAfter: number | undefined;

  constructor(body: Json, status: number, response?: Response) {
    const type = String(body.type ?? 'about:blank');
    const slug = problemSlug(type);
    const detail = typeof body.detail === 'string' ? body.detail : '';
    super(`${slug}: ${detail || String(body.title ?? '')}`, typeof body.status === 'number' ? body.status : status, body, response);
    this.type = type;
    this.slug = slug;
    this.title = String(body.title ?? '');
    this.detail = detail;
    this.instance = typeof body.instance === 'string' ? body.instance : undefined;
    this.errors = Array.isArray(body.errors) ? (body.errors as ProblemFieldError[]) : undefined;
    this.required = Array.isArray(body.required) ? (body.required as string[]) : undefined;
    this.missing = Array.isArray(body.missing) ? (body.missing as string[]) : undefined;
    this.retryAfter = response ? retryAfterSeconds(response.headers.get('Retry-After')) : undefined;
  }
}

/** A v1 (`/ramp`) or `/lookup` error: a message for display or logs, not a code. */
export class RampApiError extends RampError {
  override name = 'RampApiError';
  /** The `error` message (or the whole text of a plain-text body). */
  readonly error: string;
  /** v1 validation errors: every missing or invalid field at once. */
  readonly details: V1FieldError[] | undefined;

  constructor(error: string, status: number, body: unknown, response?: Response) {
    super(error || `HTTP ${status}`, status, body, response);
    this.error = error;
    const details = (body as Json | undefined)?.details;
    this.details = Array.isArray(details) ? (details as V1FieldError[]) : undefined;
  }
}

/** An OAuth 2.0 error of `POST /auth/token` (RFC 6749 section 5.2). */
export class RampOAuthError extends RampError {
  override name = 'RampOAuthError';
  readonly error: OAuthErrorCode;
  readonly errorDescription: string;

  constructor(body: Json, status: number, response?: Response) {
    const description = typeof body.error_description === 'string' ? body.error_description : '';
    super(`${String(body.error)}: ${description}`, status, body, response);
    this.error = body.error as OAuthErrorCode;
    this.errorDescription = description;
  }
}

/** `https://docs.ramp.example/errors/not-found` → `not-found`. */
export function problemSlug(type: string): string {
  return type.replace(/[?#].*$/, '').split('/').filter(Boolean).pop() ?? type;
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date (RFC 9110 section 10.2.3). */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function isProblem(body: unknown, response: Response): body is Json {
  if (!body || typeof body !== 'object') return false;
  if ((response.headers.get('Content-Type') ?? '').includes('application/problem+json')) return true;
  const b = body as Json;
  return typeof b.type === 'string' && typeof b.title === 'string' && typeof b.status === 'number';
}

/** The exception for an error body and its response, chosen by the body's shape. */
export function toRampError(body: unknown, response: Response): RampError {
  if (isProblem(body, response)) return new RampProblem(body, response.status, response);
  if (body && typeof body === 'object') {
    const b = body as Json;
    if (typeof b.error === 'string' && typeof b.error_description === 'string') return new RampOAuthError(b, response.status, response);
    if (typeof b.error === 'string') return new RampApiError(b.error, response.status, body, response);
  }
  if (typeof body === 'string' && body.trim() !== '') return new RampApiError(body.trim(), response.status, body, response);
  return new RampError(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`, response.status, body, response);
}

/**
 * The data of a client result, or its error thrown as a RampError:
 * `const order = await unwrap(ramp.GET('/organization/{organizationId}/order/{id}', …))`.
 */
export async function unwrap<T>(result: Promise<{ data?: T; error?: unknown; response: Response }> | { data?: T; error?: unknown; response: Response }): Promise<T> {
  const { data, error, response } = await result;
  if (!response.ok) throw toRampError(error, response);
  return data as T;
}
