/**
 * The HTML of the browser-facing pages: the launch pages (`/auth/launch`), their error
 * page, and the signed-in app pages. Each is self-contained: inline styles, at most one
 * inline script allowed by its hash, nothing loaded from anywhere.
 */
import { createHash } from 'node:crypto';
import type { components } from '../../generated/types/ramp.ts';
import type { OAuthError } from '../shared/problems.ts';
import type { Flow } from '../features/auth/rules.ts';
import type { AuthGrantRow } from '../features/auth/repository.ts';

/** The one OAuth error code of a 503 at /auth/token and /auth/launch. */
export type OAuthUnavailableCode = components['schemas']['OAuthUnavailableError']['error'];

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const style = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
main{max-width:34rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin:0 0 1rem}code{background:#eef0f4;padding:0 .3em;border-radius:4px}
dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}dt{color:#5b6477}dd{margin:0}`;

function page(title: string, body: string, head = '', tail = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${head}<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
${body}
</main>
${tail}</body>
</html>
`;
}

/** Pages without script: no script at all, no connections, no forms, no base. */
export const staticPageCsp = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

export const pageHeaders = (csp = staticPageCsp): Record<string, string> => ({
  'Cache-Control': 'no-store',
  'Content-Security-Policy': csp,
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
});

/**
 * The headers of a browser session's pages (the app pages and the launch's redirect page):
 * only the origin the session was launched for (`/auth/launch?origin=`) may frame them, and
 * without one nobody may, so a signed-in page cannot be clickjacked by another origin, even
 * one of the same site, which the session cookie's SameSite rules would not keep out.
 * `X-Frame-Options: DENY` says the same to browsers that predate `frame-ancestors`; it has
 * no form that names one origin, so it is sent only with `'none'`.
 */
export function sessionPageHeaders(frameAncestor: string | null): Record<string, string> {
  const headers = pageHeaders(`${staticPageCsp}; frame-ancestors ${frameAncestor ?? "'none'"}`);
  return frameAncestor === null ? { ...headers, 'X-Frame-Options': 'DENY' } : headers;
}

/** `POST /auth/launch` 200: signed in, on to the target. */
export function launchRedirectPage(target: string): string {
  const href = escapeHtml(target);
  return page('Signing in…', `<h1>Signed in</h1>\n<p>Opening the app… <a id="continue" href="${href}">Continue</a></p>`, `<meta http-equiv="refresh" content="0; url=${href}">\n`);
}

/**
 * A failed launch: the OAuth error code in the text and in `<meta name="oauth-error">`; a
 * database outage is `temporarily_unavailable` (OAuthUnavailableError, the 503 of the launch).
 */
export function launchErrorPage(error: { error: OAuthError['error'] | OAuthUnavailableCode; description: string }): string {
  return page(
    'Sign-in failed',
    `<h1>Sign-in failed</h1>\n<p>Error <code id="error">${escapeHtml(error.error)}</code>: <span id="error_description">${escapeHtml(error.description)}</span></p>`,
    `<meta name="oauth-error" content="${escapeHtml(error.error)}">\n`,
  );
}

/**
 * The postMessage exchange of `GET /auth/launch` (described in openapi/paths/auth/auth_launch.yaml).
 * Static text, so its CSP hash is computed once; the per-request settings ride in a JSON
 * data block that is never executed.
 */
const launchScript = `(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('launch-config').textContent);
  var origin = config.origin || null;
  var embedder = window.opener || (window.parent !== window ? window.parent : null);
  var title = document.getElementById('title');
  var status = document.getElementById('status');
  var state = 'waiting';
  var awaits = 0;
  var deadline = Date.now() + config.waitMs;
  var timer = null;
  function post(message) {
    if (!embedder) return;
    try { embedder.postMessage(message, origin || '*'); } catch (e) { /* the embedder went away */ }
  }
  function fail(code, description) {
    state = 'failed';
    clearTimeout(timer);
    var meta = document.createElement('meta');
    meta.name = 'oauth-error';
    meta.content = code;
    document.head.appendChild(meta);
    document.title = 'Sign-in failed';
    title.textContent = 'Sign-in failed';
    var codeElement = document.createElement('code');
    codeElement.id = 'error';
    codeElement.textContent = code;
    var descriptionElement = document.createElement('span');
    descriptionElement.id = 'error_description';
    descriptionElement.textContent = description;
    status.textContent = 'Error ';
    status.append(codeElement, ': ', descriptionElement);
    post({ type: 'service:auth:error', error: code });
  }
  function arm() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      if (state === 'waiting') fail('timeout', 'No sign-in details arrived in time.');
    }, Math.max(0, deadline - Date.now()));
  }
  function text(value) { return typeof value === 'string' ? value : undefined; }
  function submit(data) {
    state = 'submitting';
    clearTimeout(timer);
    status.textContent = 'Signing in…';
    var body = { grant_type: text(data.grant_type), target: text(data.target), return_url: text(data.return_url) };
    if (body.grant_type === 'refresh_token') {
      if (data.assertion !== undefined && data.refresh_token !== undefined) {
        fail('invalid_request', 'Send the refresh token in assertion or in refresh_token, not both.');
        return;
      }
      body.refresh_token = text(data.refresh_token !== undefined ? data.refresh_token : data.assertion);
    } else {
      body.assertion = text(data.assertion);
    }
    // The embedder's origin goes along: the session's pages may be framed by it alone.
    fetch(config.launchPath + (origin ? '?origin=' + encodeURIComponent(origin) : ''), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
      redirect: 'error'
    }).then(function (response) {
      return response.text().then(function (html) {
        if (response.ok) {
          state = 'done';
          status.textContent = 'Signed in.';
          window.location.replace(body.target);
          return;
        }
        var answer = new DOMParser().parseFromString(html, 'text/html');
        var meta = answer.querySelector('meta[name="oauth-error"]');
        var description = answer.getElementById('error_description');
        fail(meta ? meta.getAttribute('content') : 'server_error', description ? description.textContent : 'The service could not sign you in.');
      });
    }).catch(function () {
      fail('server_error', 'The service could not be reached.');
    });
  }
  window.addEventListener('message', function (event) {
    if (!embedder || event.source !== embedder) return;
    if (origin && event.origin !== origin) return;
    var data = event.data;
    if (!data || typeof data !== 'object' || typeof data.type !== 'string') return;
    if (state !== 'waiting') return;
    if (data.type === 'service:auth:await') {
      if (awaits < config.maxAwaits) {
        awaits += 1;
        deadline += config.awaitMs;
        arm();
      }
      return;
    }
    if (data.type === 'service:auth:response') submit(data);
  });
  if (!embedder) {
    fail('invalid_request', 'Open this page in an iframe or a popup of the partner\\'s page.');
    return;
  }
  arm();
  post({ type: 'service:auth:request' });
})();`;

const launchScriptHash = createHash('sha256').update(launchScript).digest('base64');

/** Designed timings of the exchange: 10 s to answer, +30 s per await, at most 3 awaits. */
export const launchTimings = { waitMs: 10_000, awaitMs: 30_000, maxAwaits: 3 };

export function launchPage(origin: string | undefined): { html: string; csp: string } {
  const config = JSON.stringify({ origin: origin ?? null, launchPath: '/auth/launch', ...launchTimings }).replace(/</g, '\\u003c');
  const html = page(
    'Signing in…',
    `<h1 id="title">Signing in…</h1>\n<p id="status">Waiting for your sign-in details.</p>`,
    '',
    // At the end of the body, so the elements it writes to exist when it runs.
    `<script type="application/json" id="launch-config">${config}</script>\n<script>${launchScript}</script>\n`,
  );
  const csp = `default-src 'none'; script-src 'sha256-${launchScriptHash}'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors ${origin ?? '*'}`;
  return { html, csp };
}

const flowTitles: Record<Flow | 'account', string> = {
  kyc: 'Identity verification (KYC)',
  kyb: 'Business verification (KYB)',
  onramp: 'Buy tokens (onramp)',
  offramp: 'Sell tokens (offramp)',
  swap: 'Swap tokens',
  account: 'Account',
};

/** A signed-in app page: who, which flow, which scopes, the target's query, the way back. */
export function appPage(options: {
  flow: Flow | null;
  grant: AuthGrantRow;
  partnerName: string;
  returnUrl: string | null;
  query: Record<string, string | string[]>;
}): string {
  const { flow, grant, partnerName, returnUrl, query } = options;
  const rows = [
    ['Flow', `<code id="flow">${escapeHtml(flow ?? 'account')}</code>`],
    ['Scopes', `<code id="scopes">${escapeHtml(grant.scope)}</code>`],
    ['Partner', `<span id="partner">${escapeHtml(partnerName)}</span>`],
    grant.customer_id
      ? ['Customer', `<code id="customer">${escapeHtml(grant.customer_id)}</code>`]
      : ['Subject', `<code id="subject">${escapeHtml(grant.subject)}</code> (not a UUID: not addressable through the API)`],
  ];
  const parameters = Object.entries(query).map(([k, v]) => `<li><code>${escapeHtml(k)}</code> = <code>${escapeHtml([v].flat().join(', '))}</code></li>`);
  const body = [
    `<h1 id="flow-title">${escapeHtml(flowTitles[flow ?? 'account'])}</h1>`,
    `<p>Signed in as <strong id="name">${escapeHtml(grant.name)}</strong> (<span id="email">${escapeHtml(grant.email)}</span>).</p>`,
    `<dl>\n${rows.map(([dt, dd]) => `<dt>${dt}</dt><dd>${dd}</dd>`).join('\n')}\n</dl>`,
    parameters.length ? `<p>Parameters:</p>\n<ul id="parameters">${parameters.join('')}</ul>` : '',
    returnUrl ? `<p><a id="return" href="${escapeHtml(returnUrl)}">Back to ${escapeHtml(partnerName)}</a></p>` : '',
  ].filter(Boolean);
  return page(`${flowTitles[flow ?? 'account']} · Ramp`, body.join('\n'));
}

export function signedOutPage(): string {
  return page('Not signed in · Ramp', `<h1>Not signed in</h1>\n<p>Open this page from the partner's app to sign in.</p>`, '<meta name="app-error" content="not_signed_in">\n');
}

export function forbiddenPage(flow: Flow): string {
  return page(
    'Not allowed · Ramp',
    `<h1>Not allowed</h1>\n<p>This sign-in does not include the <code>${escapeHtml(flow)}</code> scope.</p>`,
    '<meta name="app-error" content="insufficient_scope">\n',
  );
}

/** An app page refused before it is shown (a query parameter that is not text): what is wrong. */
export function invalidRequestPage(detail: string): string {
  return page('Bad request · Ramp', `<h1>Bad request</h1>\n<p id="error_description">${escapeHtml(detail)}</p>`, '<meta name="app-error" content="invalid_request">\n');
}

/** An app page while the database is unavailable (AppPageServiceUnavailable): the session cannot be read yet. */
export function unavailablePage(detail: string): string {
  return page('Temporarily unavailable · Ramp', `<h1>Temporarily unavailable</h1>\n<p id="error_description">${escapeHtml(detail)}</p>`, '<meta name="app-error" content="temporarily_unavailable">\n');
}

/**
 * `GET /` (getHome): where a person who opens the base URL goes next. Production has no
 * sandbox console, so its page links the API reference only.
 */
export function homePage(baseUrl: string, sandbox: boolean): string {
  const title = sandbox ? 'Ramp API sandbox' : 'Ramp API';
  const keyForm = sandbox ? 'api_sand:…' : 'api_prod:…';
  const console = sandbox ? '\n<li><a href="/sandbox/console">Sandbox console</a>: your organizations, orders, webhooks and requests</li>' : '';
  return page(
    title,
    `<h1>${title}</h1>
<p>Base URL: <code>${escapeHtml(baseUrl)}</code></p>
<p>Every request carries your key as it is: <code>Authorization: ${keyForm}</code> (no <code>Bearer</code>).</p>
<ul>
<li><a href="/docs">API reference</a></li>${console}
</ul>`,
  );
}
