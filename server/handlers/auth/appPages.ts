/** The signed-in app pages a launch opens (`/kyc`, …, `/account`), authenticated by the session cookie. */
import type { Flow } from '../../features/auth/rules.ts';
import { sessionFromCookies } from '../../features/auth/rules.ts';
import { sessionOf } from '../../features/auth/signIn.ts';
import { HtmlPageError } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import { findOrganization } from '../../features/organizations/useCases.ts';
import type { Handler } from '../types.ts';
import type { Request } from 'express';
import { appPage, forbiddenPage, sessionPageHeaders, signedOutPage } from '../../http/pages.ts';

async function render(services: Services, req: Request, flow: Flow | null) {
  const signedIn = await sessionOf(services, sessionFromCookies(req.headers.cookie));
  if (!signedIn) throw new HtmlPageError(401, signedOutPage(), sessionPageHeaders(null));
  const { grant, returnUrl, frameAncestor } = signedIn;
  const headers = sessionPageHeaders(frameAncestor);
  if (flow && !grant.scope.split(' ').includes(flow)) throw new HtmlPageError(403, forbiddenPage(flow), headers);
  const partner = await findOrganization(services, grant.partner_id);
  const html = appPage({ flow, grant, partnerName: partner?.display_name ?? 'the partner', returnUrl, query: req.query as Record<string, string | string[]> });
  return { status: 200 as const, type: 'text/html', body: html, headers };
}

export const getKycPage: Handler<'getKycPage'> = ({ services, req }) => render(services, req, 'kyc');
export const getKybPage: Handler<'getKybPage'> = ({ services, req }) => render(services, req, 'kyb');
export const getOnrampPage: Handler<'getOnrampPage'> = ({ services, req }) => render(services, req, 'onramp');
export const getOfframpPage: Handler<'getOfframpPage'> = ({ services, req }) => render(services, req, 'offramp');
export const getSwapPage: Handler<'getSwapPage'> = ({ services, req }) => render(services, req, 'swap');
export const getAccountPage: Handler<'getAccountPage'> = ({ services, req }) => render(services, req, null);
