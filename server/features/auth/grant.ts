/**
 * The credential of a `POST /auth/token` or `POST /auth/launch` request. The JSON bodies are
 * unions discriminated by `grant_type` (OAuthTokenRequest, LaunchRequest), whose schemas
 * already require the grant's own field. The form bodies are one flat object each
 * (OAuthTokenForm, LaunchForm: a form has no union, and client generators cannot share one
 * union between a form and a JSON body), where the schema requires only `grant_type`; so
 * the grant's field is checked here, answered as the JSON schema's check is.
 */
import { OAuthError } from '../../shared/problems.ts';
import { jwtBearerGrant } from './rules.ts';

export type Grant = { assertion: string } | { refreshToken: string };

export function grantOf(body: { grant_type: string; assertion?: string; refresh_token?: string }): Grant {
  if (body.grant_type === jwtBearerGrant) return { assertion: required(body.assertion, 'assertion') };
  return { refreshToken: required(body.refresh_token, 'refresh_token') };
}

function required(value: string | undefined, name: string): string {
  if (value === undefined) throw new OAuthError('invalid_request', `The ${name} parameter is required.`);
  return value;
}
