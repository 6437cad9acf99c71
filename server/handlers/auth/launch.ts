/** `{app_url}/auth/launch`: sign a browser in (POST) or run the postMessage exchange (GET). */
import { grantOf } from '../../features/auth/grant.ts';
import { checkEmbedderOrigin, checkOrigin, checkReturnUrl, checkTarget, checkTargetScope, sessionCookie } from '../../features/auth/rules.ts';
import { signInWithAssertion, signInWithRefreshToken } from '../../features/auth/signIn.ts';
import type { Handler } from '../types.ts';
import { launchPage, launchRedirectPage, pageHeaders, sessionPageHeaders } from '../../http/pages.ts';

export const launchSession: Handler<'launchSession'> = async ({ body, query, req, services }) => {
  const { config } = services;
  // Checked before the credential, so a bad target or origin consumes nothing.
  const returnUrl = checkReturnUrl(body.return_url, config.env) ?? null;
  const frameAncestor = query.origin === undefined ? null : checkOrigin(query.origin, config.env);
  const target = checkTarget(body.target, config.appUrl);
  const options = { check: (grant: { scope: string }) => checkTargetScope(target, grant.scope.split(' ')), returnUrl, frameAncestor };
  const grant = grantOf(body);
  const session = 'assertion' in grant
    ? await signInWithAssertion(services, grant.assertion, options)
    : await signInWithRefreshToken(services, grant.refreshToken, options);
  const fetchDest = req.get('sec-fetch-dest');
  return {
    status: 200,
    type: 'text/html',
    body: launchRedirectPage(target.url),
    headers: { ...sessionPageHeaders(frameAncestor), 'Set-Cookie': sessionCookie(session.token, { fetchDest, appUrl: config.appUrl }) },
  };
};

export const getLaunchPage: Handler<'getLaunchPage'> = ({ query, services }) => {
  const origin = checkEmbedderOrigin(query.origin, services.config.env);
  const { html, csp } = launchPage(origin);
  return { status: 200, type: 'text/html', body: html, headers: pageHeaders(csp) };
};
