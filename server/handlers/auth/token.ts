/** `POST /auth/token`: the OAuth 2.0 token endpoint (JWT bearer grant and refresh tokens). */
import { grantOf } from '../../features/auth/grant.ts';
import { signInWithAssertion, signInWithRefreshToken } from '../../features/auth/signIn.ts';
import { OAuthError } from '../../shared/problems.ts';
import type { Handler } from '../types.ts';

export const createToken: Handler<'createToken'> = async ({ body, req, services }) => {
  // The JWT is the credential: an API key here would be a key leaking into sign-in code.
  if (req.headers.authorization !== undefined) {
    throw new OAuthError('invalid_request', 'Send no Authorization header: the assertion or the refresh token is the credential.');
  }
  const grant = grantOf(body);
  const tokens = 'assertion' in grant
    ? await signInWithAssertion(services, grant.assertion)
    : await signInWithRefreshToken(services, grant.refreshToken);
  return { status: 200, body: tokens, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } };
};
