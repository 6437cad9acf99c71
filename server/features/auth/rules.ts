/**
 * The designed numbers and lists of partner sign-in (openapi/paths/auth/*.yaml): accepted
 * algorithms, clock leeway, lifetimes, scopes, launch targets, and the checks on a launch's
 * `target` and `return_url`. Pure: no storage, no HTTP.
 */
import type { Environment } from '../../config.ts';
import { OAuthError } from '../../shared/problems.ts';

/** Asymmetric only: `none` and HMAC would let anyone holding the public JWKS sign. */
export const acceptedAlgorithms = ['ES256', 'RS256', 'EdDSA'] as const;
export const clockLeewaySeconds = 60;
export const maxAssertionLifetimeSeconds = 300;

export const accessTokenSeconds = 900;
export const refreshTokenSeconds = 30 * 24 * 3600;
export const sessionSeconds = 30 * 24 * 3600;

/** A fetched JWKS is used this long before it is fetched again. */
export const jwksCacheSeconds = 300;
/** An unknown `kid` refetches the JWKS, but no more often than this (a flood of bad kids must not hammer the partner). */
export const jwksRefetchSeconds = 30;
export const jwksFetchTimeoutMs = 5000;
export const jwksMaxBytes = 64 * 1024;

export const flows = ['onramp', 'offramp', 'swap', 'kyc', 'kyb'] as const;
export type Flow = (typeof flows)[number];

/** The app paths a launch may open, and the scope each needs (`/account` needs none). */
export const launchTargets: Readonly<Record<string, Flow | null>> = {
  '/kyc': 'kyc',
  '/kyb': 'kyb',
  '/onramp': 'onramp',
  '/offramp': 'offramp',
  '/swap': 'swap',
  '/account': null,
};

export const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export const sessionCookieName = 'ramp_session';

const isFlow = (value: string): value is Flow => (flows as readonly string[]).includes(value);

/** The JWT's `scope` claim as a list of flows: missing, empty or unknown is `invalid_scope`. */
export function parseScope(claim: unknown): Flow[] {
  if (claim === undefined) throw new OAuthError('invalid_scope', `The scope claim is required: one or more of ${flows.join(', ')}.`);
  if (typeof claim !== 'string') throw new OAuthError('invalid_scope', 'The scope claim must be a space-separated string.');
  const values = claim.split(' ').filter((v) => v !== '');
  if (values.length === 0) throw new OAuthError('invalid_scope', `The scope claim is empty; name one or more of ${flows.join(', ')}.`);
  const unknown = values.filter((v) => !isFlow(v));
  if (unknown.length > 0) throw new OAuthError('invalid_scope', `Unknown scope: ${unknown.join(', ')}.`);
  return [...new Set(values as Flow[])];
}

export interface LaunchTarget {
  /** The target exactly as sent (path and query), for the redirect. */
  url: string;
  path: string;
  flow: Flow | null;
}

/** The longest target a launch opens (path and query). */
export const maxTargetLength = 2048;

/**
 * An allowlisted app path with an optional query string, else `invalid_target`: whatever
 * the shape of what was sent (an absolute URL, a scheme-relative one, an empty string, one
 * too long), a target that is not allowed is `invalid_target`, never `invalid_request`. The
 * contract's schema therefore gives `target` no pattern and no length.
 */
export function checkTarget(target: string, appUrl: string): LaunchTarget {
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  const shown = target === '' ? 'An empty target' : (path || target).length > 100 ? `${(path || target).slice(0, 100)}…` : path || target;
  const refused = new OAuthError('invalid_target', `${shown} cannot be opened from a launch; open one of ${Object.keys(launchTargets).join(', ')}.`);
  if (!Object.hasOwn(launchTargets, path) || target.length > maxTargetLength) throw refused;
  // The query is passed on as sent, but it must not carry a fragment, spaces or controls, and
  // the whole target must stay on the app's own origin.
  if (/[#\s\\\u0000-\u001f\u007f]/.test(target)) throw refused;
  const resolved = new URL(target, appUrl);
  if (resolved.origin !== new URL(appUrl).origin || resolved.pathname !== path) throw refused;
  return { url: target, path, flow: launchTargets[path]! };
}

/** The target's flow must be among the sign-in's scopes, else `invalid_scope`. */
export function checkTargetScope(target: LaunchTarget, scopes: readonly string[]) {
  if (target.flow && !scopes.includes(target.flow)) {
    throw new OAuthError('invalid_scope', `${target.path} needs the ${target.flow} scope; this sign-in has ${scopes.join(' ')}.`);
  }
}

/** `return_url`: absolute https (http only outside production), else `invalid_request`. */
export function checkReturnUrl(value: string | undefined, env: Environment): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OAuthError('invalid_request', 'return_url must be an absolute URL.');
  }
  const allowed = env === 'production' ? ['https:'] : ['https:', 'http:'];
  if (!allowed.includes(url.protocol)) {
    throw new OAuthError('invalid_request', `return_url must use ${env === 'production' ? 'https' : 'http or https'}.`);
  }
  if (url.username || url.password) throw new OAuthError('invalid_request', 'return_url must not carry credentials.');
  return url.toString();
}

/**
 * A host a CSP `host-source` can name: DNS labels of letters, digits and inner hyphens
 * (what the WHATWG parser leaves of a host name, lowercased and punycoded) or an IPv4
 * address. The URL parser alone lets through hosts such as `*` or `a.com;sandbox`, which
 * written into `frame-ancestors` would allow every site or add a directive.
 */
const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const cspHost = new RegExp(`^${label}(?:\\.${label})*$`);

/**
 * `origin` of the postMessage page (and of a framed launch): a serialized origin exactly,
 * `scheme://host[:port]` as the WHATWG URL parser serializes it (`new URL(x).origin === x`:
 * lowercase, no default port, no path, no credentials), whose host is a host name or an
 * IPv4 address. https, or http outside production. Undefined means "none given".
 */
export function checkEmbedderOrigin(value: string | undefined, env: Environment): string | undefined {
  if (value === undefined) {
    if (env === 'production') throw new OAuthError('invalid_request', 'The origin parameter is required.');
    return undefined;
  }
  return checkOrigin(value, env);
}

/** A given origin, by the rules above, else `invalid_request`. */
export function checkOrigin(value: string, env: Environment): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || url.origin !== value || !cspHost.test(url.hostname)) {
    throw new OAuthError('invalid_request', 'origin must be an origin, scheme://host[:port] with a host name or an IPv4 address, and no path or trailing slash.');
  }
  const allowed = env === 'production' ? ['https:'] : ['https:', 'http:'];
  if (!allowed.includes(url.protocol)) throw new OAuthError('invalid_request', `origin must use ${env === 'production' ? 'https' : 'http or https'}.`);
  return value;
}

/**
 * The session cookie. A launch inside a frame needs `SameSite=None; Secure; Partitioned`
 * (browsers keep no Lax cookie in a cross-site frame); Fetch Metadata says when: a form POST
 * into a frame (`iframe`) or the launch page's own fetch (`empty`, frame or popup alike).
 */
export function sessionCookie(value: string, options: { fetchDest: string | undefined; appUrl: string }): string {
  const framed = options.fetchDest === 'iframe' || options.fetchDest === 'empty';
  const base = `${sessionCookieName}=${value}; Path=/; HttpOnly`;
  if (framed) return `${base}; SameSite=None; Secure; Partitioned`;
  return `${base}; SameSite=Lax${options.appUrl.startsWith('https:') ? '; Secure' : ''}`;
}

/** The session token in a Cookie header, if any. */
export function sessionFromCookies(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === sessionCookieName) return part.slice(eq + 1).trim();
  }
  return undefined;
}
