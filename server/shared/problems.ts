/**
 * Errors are thrown as typed problems and rendered in one place (server/http/errors.ts). The
 * slug is the only thing a throw site names: status and title come from the contract.
 */
export class Problem extends Error {
  constructor(
    readonly slug: string,
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

/** An OAuth 2.0 error of /auth/token and /auth/launch (RFC 6749 section 5.2). */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_grant' | 'invalid_scope' | 'unsupported_grant_type' | 'invalid_target',
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
