/**
 * The credential of a `POST /auth/token` or `POST /auth/launch` request. The JSON bodies
 * (OAuthTokenRequest, LaunchRequest) require the grant's own field through their `if`/`then`
 * on `grant_type`. The form bodies are one flat object each (OAuthTokenForm, LaunchForm:
 * client generators cannot share one schema between a form and a JSON body), where the schema
 * requires only `grant_type`; so the grant's field is checked here, answered as the JSON
 * schema's check is.
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
