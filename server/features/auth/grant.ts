/**
 * The credential of a `POST /auth/token` or `POST /auth/launch` request. Every body, form or
 * JSON, is held by the validator to its grant's schema (the `if`/`then` on `grant_type` of
 * OAuthTokenForm, OAuthTokenRequest, LaunchForm and LaunchRequest), so the grant's own field
 * is there: this only names it.
 */
import { jwtBearerGrant } from './rules.ts';

export type Grant = { assertion: string } | { refreshToken: string };

export function grantOf(body: { grant_type: string; assertion?: string; refresh_token?: string }): Grant {
  // The generated type cannot say what the `if`/`then` requires; the validator did.
  return body.grant_type === jwtBearerGrant ? { assertion: body.assertion! } : { refreshToken: body.refresh_token! };
}
