/**
 * Errors are thrown as typed problems and rendered in one place (server/http/errors.ts). The
 * slug is the only thing a throw site names: status and title come from the contract.
 */
import type { components } from '../../generated/types/ramp.ts';

type Schemas = components['schemas'];

/** The contract's `…Problem` schemas (one per slug, each fixing its type, title and status). */
type ProblemSchema = Schemas[Extract<keyof Schemas, `${string}Problem`>];

/**
 * Every slug the contract defines, read from the `type` constant of its `…Problem` schema
 * (`https://docs.ramp.example/errors/<slug>`): a slug no schema defines fails `tsc`.
 */
export type ProblemSlug = ProblemSchema extends infer P ? (P extends { type: `${string}/errors/${infer Slug}` } ? Slug : never) : never;

export class Problem extends Error {
  constructor(
    readonly slug: ProblemSlug,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export interface FieldError {
  pointer: string;
  detail: string;
}

export const validationError = (errors: FieldError[]) =>
  new Problem('validation-error', `The request has ${errors.length} invalid field${errors.length === 1 ? '' : 's'}.`, { errors });

export const notFound = (what: string, id: string) => new Problem('not-found', `${what} ${id} was not found.`);

/**
 * The OAuth error codes: `OAuthError.error` of `/auth/token`, and `invalid_target`, which only
 * `/auth/launch` answers (its operations name it in their descriptions and pages; no schema
 * of the contract enumerates launch errors).
 */
export type OAuthErrorCode = Schemas['OAuthError']['error'] | 'invalid_target';

/** An OAuth 2.0 error of /auth/token and /auth/launch (RFC 6749 section 5.2). */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
  }
}

/** An error answered as a whole HTML page (the signed-in app pages): status, page and headers as given. */
export class HtmlPageError extends Error {
  constructor(
    readonly status: number,
    readonly html: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTML page ${status}`);
  }
}
