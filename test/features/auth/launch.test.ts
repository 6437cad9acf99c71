/**
 * `{app_url}/auth/launch` and the signed-in app pages over HTTP: the session cookie, the
 * target allowlist, `return_url`, refresh-token launches, the error pages, and the
 * postMessage page's headers. The browser half is test/browser/launch.test.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components, paths } from '../../../client/index.ts';
import { loadContract } from '../../../server/shared/contract.ts';
import { expectStatus, type RequestBody } from '../../support/api.ts';
import { loadBundle } from '../../support/documents.ts';
import { expectOAuthError } from '../../support/errors.ts';
import { errorPageParts, htmlPage, jwtBearer, launchSession, Partner, requestToken } from '../../support/partner.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

let server: TestServer;
let partner: Partner;

beforeAll(async () => {
  server = await startTestServer();
  partner = await Partner.create(server);
  await partner.register();
});
afterAll(async () => {
  await server?.close();
});

type LaunchRequest = RequestBody<'launchSession'>;
type Page = Response & { text_: string };

/** `POST /auth/launch` as a browser posts its form (`launchSession`), read as a page. */
const launch = async (body: LaunchRequest, headers: Record<string, string> = {}, origin?: string) =>
  htmlPage(await launchSession(server, body, { headers, ...(origin === undefined ? {} : { origin }) }));
/** The same launch as JSON, which the contract also takes (on `server` unless told). */
const launchJson = async (body: LaunchRequest, o: { origin?: string; on?: TestServer } = {}) =>
  htmlPage(await (o.on ?? server).as(null).POST('/auth/launch', { params: { query: o.origin === undefined ? {} : { origin: o.origin } }, body, parseAs: 'text' }));
/** A form the contract's LaunchRequest refuses (an unknown grant, a field missing): only sendRaw sends it. */
const launchRaw = (fields: Record<string, string>) =>
  server.sendRaw('POST', '/auth/launch', { key: null, raw: new URLSearchParams(fields).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
const launchJwt = async (target: string, claims: Record<string, unknown> = {}, extra: { return_url?: string } = {}, headers: Record<string, string> = {}) =>
  launch({ grant_type: jwtBearer, assertion: await partner.sign(claims), target, ...extra }, headers);
/** The tokens of a sign-in at `POST /auth/token` that must succeed. */
const signIn = async (scope: string) => expectStatus(await requestToken(server, { grant_type: jwtBearer, assertion: await partner.sign({ scope }) }), 200);
const refresh = (refreshToken: string) => requestToken(server, { grant_type: 'refresh_token', refresh_token: refreshToken });
const cookieOf = (response: Response) => response.headers.get('set-cookie')?.split(';')[0];

/** The app pages (`getKycPage`, …), each a launch target: the top-level paths whose GET answers the contract's AppPage (`/docs` and `/`, HTML pages of the same shape, are none). */
type AppPage = {
  [P in keyof paths]: P extends `/${string}/${string}` | '/docs' | '/' ? never : paths[P] extends { get: { responses: { 200: components['responses']['AppPage'] } } } ? P : never;
}[keyof paths];
/** An app page as a browser opens it, with the session cookie (if any) and the target's query passed on. */
const open = async (path: AppPage, cookie?: string, query?: Record<string, string>, on: TestServer = server) =>
  htmlPage(await on.as(null).GET(path, {
    params: { query: query === undefined ? {} : { query } },
    // AppPageQuery is the target's own query string (form, exploded): `?amount=500&asset=USDC`.
    querySerializer: { object: { style: 'form', explode: true } },
    headers: cookie ? { Cookie: cookie } : {},
    parseAs: 'text',
  }));
/** The `GET /auth/launch` page (`getLaunchPage`) for an origin the parameter's pattern takes. */
const launchPage = async (origin?: string, on: TestServer = server) =>
  htmlPage(await on.as(null).GET('/auth/launch', { params: { query: origin === undefined ? {} : { origin } }, parseAs: 'text' }));
const oauthError = (html: string) => errorPageParts(html).meta;
/** The HTML examples of one answer of /auth/launch in the reference. */
const pageExamples = (method: 'get' | 'post', status: string) =>
  loadBundle('auth').paths['/auth/launch'][method].responses[status].content['text/html'].examples as Record<string, { value: string }>;

describe('POST /auth/launch', () => {
  it('signs in, sets the Lax session cookie and sends the browser to the target', async () => {
    const sub = randomUUID();
    const response = await launchJwt('/onramp?amount=500&asset=USDC', { sub, scope: 'onramp kyc' }, { return_url: 'https://partner.example/wallet' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('set-cookie')).toMatch(/^ramp_session=s_[\w-]{40,}; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(response.text_).toContain('<meta http-equiv="refresh" content="0; url=/onramp?amount=500&#38;asset=USDC">');

    const page = await open('/onramp', cookieOf(response), { amount: '500', asset: 'USDC' });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text_).toContain('<strong id="name">Ana López</strong>');
    expect(page.text_).toContain('<span id="email">ana.lopez@example.com</span>');
    expect(page.text_).toContain('<code id="flow">onramp</code>');
    expect(page.text_).toContain('<code id="scopes">onramp kyc</code>');
    expect(page.text_).toContain(`<code id="customer">${sub}</code>`);
    expect(page.text_).toContain('<code>amount</code> = <code>500</code>');
    expect(page.text_).toContain('<a id="return" href="https://partner.example/wallet">');
    expect(page.text_).not.toContain('<script');
  });

  it('accepts JSON, and shows a non-UUID sub as not addressable', async () => {
    const response = await launchJson({ grant_type: jwtBearer, assertion: await partner.sign({ sub: 'user-7', scope: 'kyb' }), target: '/kyb' });
    expect(response.status).toBe(200);
    const page = await open('/kyb', cookieOf(response));
    expect(page.text_).toContain('<code id="flow">kyb</code>');
    expect(page.text_).toContain('<code id="subject">user-7</code> (not a UUID');
  });

  it('sets SameSite=None; Secure; Partitioned when launched in a frame or by the launch page', async () => {
    for (const dest of ['iframe', 'empty']) {
      const response = await launchJwt('/kyc', {}, {}, { 'Sec-Fetch-Dest': dest });
      expect(response.headers.get('set-cookie')).toMatch(/^ramp_session=s_[\w-]+; Path=\/; HttpOnly; SameSite=None; Secure; Partitioned$/);
    }
    const document = await launchJwt('/kyc', {}, {}, { 'Sec-Fetch-Dest': 'document' });
    expect(document.headers.get('set-cookie')).toMatch(/SameSite=Lax$/);
  });

  // Whatever its shape, a target that is not allowed is invalid_target (absolute URLs too,
  // which a schema pattern once answered with invalid_request).
  const targets = [
    '/settings', '/kyc/', '/kyc/../admin', '//evil.example/kyc', '/kyc#fragment', '/KYC', '/kyc\\@evil.example', '/auth/token',
    'https://evil.example/kyc', 'http://localhost:3000/kyc', 'javascript:alert(1)', 'data:text/html,hi', 'kyc', '', ' /kyc', '?kyc',
    `/kyc?${'a'.repeat(2100)}`,
  ];
  for (const target of targets) {
    it(`refuses the target ${JSON.stringify(target.slice(0, 40))} with invalid_target, consuming nothing`, async () => {
      const assertion = await partner.sign();
      for (const response of [await launch({ grant_type: jwtBearer, assertion, target }), await launchJson({ grant_type: jwtBearer, assertion, target })]) {
        expect(response.status).toBe(400);
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        expect(oauthError(response.text_)).toBe('invalid_target');
        expect(response.text_).toContain('<code id="error">invalid_target</code>');
        expect(response.headers.get('set-cookie')).toBeNull();
      }
      // The JWT was not used up: it still signs in.
      expect((await launch({ grant_type: jwtBearer, assertion, target: '/kyc' })).status).toBe(200);
    });
  }

  it('refuses the app\'s own origin as an absolute target too, and keeps the refresh token', async () => {
    const tokens = await signIn('kyc');
    for (const target of [`${server.url}/kyc`, 'https://evil.example/kyc']) {
      const refused = await launch({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, target });
      expect(oauthError(refused.text_)).toBe('invalid_target');
    }
    expect((await launch({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, target: '/kyc' })).status).toBe(200);
  });

  it('answers a target that is no string (JSON) or is missing with invalid_request', async () => {
    for (const target of [42, ['/kyc'], { path: '/kyc' }, null, undefined]) {
      // A target LaunchRequest refuses: only sendRaw sends it.
      const response = await server.sendRaw('POST', '/auth/launch', { key: null, body: { grant_type: jwtBearer, assertion: await partner.sign(), target } });
      expect(oauthError(response.text_), JSON.stringify(target)).toBe('invalid_request');
    }
  });

  it("refuses a target whose flow is not in the scopes with invalid_scope; /account needs none", async () => {
    const assertion = await partner.sign({ scope: 'kyc' });
    const response = await launch({ grant_type: jwtBearer, assertion, target: '/onramp' });
    expect(oauthError(response.text_)).toBe('invalid_scope');
    expect(response.text_).toContain('/onramp needs the onramp scope');
    const account = await launch({ grant_type: jwtBearer, assertion, target: '/account' });
    expect(account.status).toBe(200);
    const page = await open('/account', cookieOf(account));
    expect(page.status).toBe(200);
    expect(page.text_).toContain('<code id="flow">account</code>');
  });

  // What LaunchRequest takes goes through the typed client; an unknown grant or a missing field only sendRaw sends.
  const failures: [string, () => Promise<Page>, string][] = [
    ['an expired JWT', async () => launch({ grant_type: jwtBearer, assertion: await partner.sign({ iat: Math.floor(Date.now() / 1000) - 400, exp: Math.floor(Date.now() / 1000) - 200 }), target: '/kyc' }), 'invalid_grant'],
    ['an unknown scope', async () => launch({ grant_type: jwtBearer, assertion: await partner.sign({ scope: 'kyc loans' }), target: '/kyc' }), 'invalid_scope'],
    ['a JWT whose aud also names another audience', async () => launch({ grant_type: jwtBearer, assertion: await partner.sign({ aud: ['https://evil.example', partner.audience] }), target: '/kyc' }), 'invalid_grant'],
    ['an unknown grant_type', async () => launchRaw({ grant_type: 'password', target: '/kyc' }), 'unsupported_grant_type'],
    ['no target', async () => launchRaw({ grant_type: jwtBearer, assertion: await partner.sign() }), 'invalid_request'],
    ['no assertion', async () => launchRaw({ grant_type: jwtBearer, target: '/kyc' }), 'invalid_request'],
    ['no refresh_token', async () => launchRaw({ grant_type: 'refresh_token', target: '/kyc' }), 'invalid_request'],
    ['a javascript: return_url', async () => launch({ grant_type: jwtBearer, assertion: await partner.sign(), target: '/kyc', return_url: 'javascript:alert(1)' }), 'invalid_request'],
    ['an unknown refresh token', async () => launch({ grant_type: 'refresh_token', refresh_token: 'rt_nope', target: '/kyc' }), 'invalid_grant'],
  ];
  it("asks for the grant's own field of a form as of a JSON body, before reading the target", async () => {
    for (const [fields, name] of [[{ grant_type: jwtBearer }, 'assertion'], [{ grant_type: 'refresh_token' }, 'refresh_token']] as const) {
      // A target no launch may open: the missing credential is told first, in both media types.
      const body = { ...fields, target: 'https://evil.example/kyc' };
      const pages = [await launchRaw(body), await launchJson(body)];
      for (const page of pages) {
        expect(page.status).toBe(400);
        expect(oauthError(page.text_)).toBe('invalid_request');
        expect(page.text_).toContain(`<span id="error_description">The ${name} parameter is required.</span>`);
      }
    }
  });

  it("answers each 400 example of the reference with the same code and description", async () => {
    const examples = pageExamples('post', '400');
    const expiredAt = Date.parse('2026-05-14T16:36:07Z') / 1000;
    const pages: Record<string, () => Promise<Page>> = {
      InvalidTarget: async () => launch({ grant_type: jwtBearer, assertion: await partner.sign(), target: '/settings' }),
      InvalidGrant: async () => launch({ grant_type: jwtBearer, assertion: await partner.sign({ iat: expiredAt - 240, exp: expiredAt }), target: '/kyc' }),
    };
    expect(Object.keys(pages).sort()).toEqual(Object.keys(examples).sort());
    for (const [name, page] of Object.entries(pages)) {
      const example = errorPageParts(examples[name]!.value);
      expect(example.description, name).toBeDefined();
      expect(errorPageParts((await page()).text_), name).toEqual(example);
    }
  });

  for (const [what, send, error] of failures) {
    it(`answers ${what} with a 400 page naming ${error}, and no cookie`, async () => {
      const response = await send();
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(oauthError(response.text_)).toBe(error);
      expect(response.text_).toContain(`<code id="error">${error}</code>`);
      expect(response.headers.get('set-cookie')).toBeNull();
    });
  }

  it('launches with a refresh token and consumes it', async () => {
    const tokens = await signIn('swap');
    const response = await launch({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, target: '/swap' });
    expect(response.status).toBe(200);
    const page = await open('/swap', cookieOf(response));
    expect(page.text_).toContain('<code id="flow">swap</code>');
    expectOAuthError(await refresh(tokens.refresh_token), 'invalid_grant');
  });

  it('keeps a refresh token when the launch is refused for its target', async () => {
    const tokens = await signIn('swap');
    const refused = await launch({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, target: '/kyc' });
    expect(oauthError(refused.text_)).toBe('invalid_scope');
    expectStatus(await refresh(tokens.refresh_token), 200);
  });

  it('ends the browser session too when a refresh token is reused', async () => {
    const tokens = await signIn('kyc');
    const response = await launch({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, target: '/kyc' });
    const cookie = cookieOf(response);
    expect((await open('/kyc', cookie)).status).toBe(200);
    // The reuse is refused (and it ends the sign-in, the browser session with it).
    expectOAuthError(await refresh(tokens.refresh_token), 'invalid_grant');
    expect((await open('/kyc', cookie)).status).toBe(401);
  });
});

/** Who may frame a page, as its headers say. */
const framing = (response: Response) => ({
  ancestors: /frame-ancestors ([^;]+)$/.exec(response.headers.get('content-security-policy') ?? '')?.[1],
  xFrameOptions: response.headers.get('x-frame-options'),
});
const nobody = { ancestors: "'none'", xFrameOptions: 'DENY' };
const only = (origin: string) => ({ ancestors: origin, xFrameOptions: null });

describe('who may frame the pages of a session', () => {
  const pages: AppPage[] = ['/kyc', '/onramp', '/account'];
  const everyPage = async (cookie: string | undefined) => Promise.all(pages.map(async (path) => ({ path, ...framing(await open(path, cookie)) })));

  it('nobody, after a launch that names no origin (form, JSON, refresh token)', async () => {
    const scope = 'kyc onramp';
    const tokens = await signIn(scope);
    const launches = [
      await launchJwt('/kyc', { scope }),
      await launchJwt('/kyc', { scope }, {}, { 'Sec-Fetch-Dest': 'iframe' }),
      await launchJson({ grant_type: jwtBearer, assertion: await partner.sign({ scope }), target: '/kyc' }),
      await launch({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, target: '/kyc' }),
    ];
    for (const response of launches) {
      expect(response.status).toBe(200);
      expect(framing(response)).toEqual(nobody);
      for (const page of await everyPage(cookieOf(response))) expect(page).toEqual({ path: page.path, ...nobody });
    }
  });

  it("the launch's origin alone, after a launch that names one (form, JSON, refresh token)", async () => {
    const scope = 'kyc onramp';
    const origin = 'https://wallet.partner.example:8443';
    const tokens = await signIn(scope);
    const form = (body: LaunchRequest) => launch(body, { 'Sec-Fetch-Dest': 'iframe' }, origin);
    // The JSON launch names its origin as written, not percent-encoded as the form's action does.
    const json = async (body: LaunchRequest) =>
      htmlPage(await server.as(null).POST('/auth/launch', { params: { query: { origin } }, querySerializer: { allowReserved: true }, body, parseAs: 'text' }));
    const launches = [
      await form({ grant_type: jwtBearer, assertion: await partner.sign({ scope }), target: '/kyc' }),
      await json({ grant_type: jwtBearer, assertion: await partner.sign({ scope }), target: '/kyc' }),
      await form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, target: '/kyc' }),
    ];
    for (const response of launches) {
      expect(response.status).toBe(200);
      expect(framing(response)).toEqual(only(origin));
      for (const page of await everyPage(cookieOf(response))) expect(page).toEqual({ path: page.path, ...only(origin) });
    }
    // A page outside the scopes (403) keeps the session's rule; without a session (401), nobody.
    const kycOnly = cookieOf(await form({ grant_type: jwtBearer, assertion: await partner.sign({ scope: 'kyc' }), target: '/kyc' }));
    const outside = await open('/onramp', kycOnly);
    expect(outside.status).toBe(403);
    expect(framing(outside)).toEqual(only(origin));
    const signedOut = await open('/kyc');
    expect(signedOut.status).toBe(401);
    expect(framing(signedOut)).toEqual(nobody);
  });

  it('refuses an origin that is not one with invalid_request, consuming nothing', async () => {
    const assertion = await partner.sign();
    const body: LaunchRequest = { grant_type: jwtBearer, assertion, target: '/kyc' };
    // The first two match the parameter's pattern (the typed client sends them), the last two do not (only sendRaw does).
    const refusals = [
      ...['https://*', 'https://partner.example;sandbox'].map((origin) => [origin, () => launchJson(body, { origin })] as const),
      ...['https://partner.example/', 'partner.example'].map((origin) => [origin, () => server.sendRaw('POST', `/auth/launch?origin=${encodeURIComponent(origin)}`, { key: null, body })] as const),
    ];
    for (const [origin, refuse] of refusals) {
      const response = await refuse();
      expect(response.status, origin).toBe(400);
      expect(oauthError(response.text_), origin).toBe('invalid_request');
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    expect((await launch({ grant_type: jwtBearer, assertion, target: '/kyc' })).status).toBe(200);
  });
});

describe('the app pages', () => {
  it('answer 401 without a session, and with an unknown one', async () => {
    for (const cookie of [undefined, 'ramp_session=s_forged']) {
      const page = await open('/kyc', cookie);
      expect(page.status).toBe(401);
      expect(page.text_).toContain('<meta name="app-error" content="not_signed_in">');
    }
  });

  it('each: 200 in a session whose scopes name its flow, 401 without a session, 403 outside the scopes (the account page needs none)', async () => {
    const pages = loadContract().operations.filter((o) => o.path.split('/').length === 2 && o.method === 'get' && o.operationId.endsWith('Page'));
    const appPages: AppPage[] = ['/account', '/kyb', '/kyc', '/offramp', '/onramp', '/swap'];
    expect(pages.map((o) => o.path).sort()).toEqual(appPages);
    const everything = cookieOf(await launchJwt('/account', { scope: 'kyc kyb onramp offramp swap' }));
    const kycOnly = cookieOf(await launchJwt('/account', { scope: 'kyc' }));
    const kybOnly = cookieOf(await launchJwt('/account', { scope: 'kyb' }));
    for (const path of appPages) {
      expect((await open(path, everything)).status, path).toBe(200);
      expect((await open(path)).status, path).toBe(401);
      const outside = await open(path, path === '/kyc' ? kybOnly : kycOnly);
      expect(outside.status, path).toBe(path === '/account' ? 200 : 403);
      if (path === '/kyb') expect((await open(path, kybOnly)).status).toBe(200);
    }
  });

  it('answer 403 for a flow outside the sign-in scopes', async () => {
    const response = await launchJwt('/kyc', { scope: 'kyc' });
    const page = await open('/offramp', cookieOf(response));
    expect(page.status).toBe(403);
    expect(page.text_).toContain('<code>offramp</code> scope');
  });

  it('escape what the partner put in the JWT', async () => {
    const response = await launchJwt('/kyc', { name: '<img src=x onerror=alert(1)>' });
    const page = await open('/kyc', cookieOf(response));
    expect(page.text_).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(page.text_).not.toContain('<img');
  });
});

describe('GET /auth/launch', () => {
  it('answers the self-contained postMessage page, framable only by origin', async () => {
    const response = await launchPage('https://partner.example');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain('frame-ancestors https://partner.example');
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("default-src 'none'");
    // The one inline script is the one the policy allows by hash; nothing is loaded.
    const scripts = [...response.text_.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(csp).toContain(`'sha256-${createHash('sha256').update(scripts[0]!).digest('base64')}'`);
    expect(response.text_).not.toMatch(/\ssrc=|<link/);
    expect(response.text_).toContain('{"origin":"https://partner.example"');
  });

  it('accepts a missing origin in the sandbox (any ancestor), and refuses one that is no origin', async () => {
    const any = await launchPage();
    expect(any.status).toBe(200);
    expect(any.headers.get('content-security-policy')).toContain('frame-ancestors *');
    // Origins the parameter's pattern refuses: only sendRaw sends them.
    for (const origin of ['https://partner.example/', 'https://partner.example/path', 'ftp://partner.example', 'partner.example']) {
      const response = await server.sendRaw('GET', `/auth/launch?origin=${encodeURIComponent(origin)}`, { key: null });
      expect(response.status).toBe(400);
      expect(oauthError(response.text_)).toBe('invalid_request');
    }
  });

  it('accepts an origin with a port, an IPv4 address or a punycode host, written as its own serialization', async () => {
    for (const origin of ['http://localhost:5173', 'https://127.0.0.1:8443', 'https://xn--bcher-kva.example', 'https://a-b.partner.example']) {
      const response = await launchPage(origin);
      expect(response.status, origin).toBe(200);
      expect(response.headers.get('content-security-policy')).toMatch(new RegExp(`; frame-ancestors ${origin.replace(/[.]/g, '\\.')}$`));
    }
  });
});

/**
 * `origin` is written into `frame-ancestors`: a host the URL parser takes but a CSP
 * host-source cannot name would widen the policy (`*`) or add a directive (`;`). Sent as is
 * and percent-encoded, in the sandbox and in production.
 */
const notOrigins = [
  'https://*', 'https://*.partner.example', 'https://partner.example;sandbox', 'https://partner.example;frame-ancestors *',
  'https://partner.example,https://evil.example', "https://partner.example'", 'https://partner.example sandbox', 'https://a b.example',
  'https://partner_example.com', 'https://-partner.example', 'https://partner..example', 'https://partner.example.', 'https://[::1]',
  'https://PARTNER.example', 'https://partner.example:443', 'https://user@partner.example', 'https://bücher.example', 'https://0x7f.1',
  'https://partner.example:99999', 'https://partner.example?x', 'https://partner.example#x', 'https:partner.example', 'javascript://partner.example',
];

/** Each origin in two spellings of the query, exactly as written: only sendRaw sends them. */
function refusesEveryNotOrigin(on: () => TestServer) {
  const get = (path: string) => on().sendRaw('GET', path, { key: null });
  return async () => {
    for (const origin of notOrigins) {
      for (const query of [encodeURIComponent(origin), origin.replace(/ /g, '%20').replace(/#/g, '%23')]) {
        const response = await get(`/auth/launch?origin=${query}`);
        expect(response.status, origin).toBe(400);
        expect(response.headers.get('content-type'), origin).toMatch(/^text\/html/);
        expect(oauthError(response.text_), origin).toBe('invalid_request');
        expect(response.headers.get('content-security-policy'), origin).not.toMatch(/frame-ancestors|sandbox/);
        expect(response.text_, origin).not.toContain('service:auth:request');
      }
    }
  };
}

describe('GET /auth/launch with an origin that is not one', () => {
  it('answers the invalid_request page in the sandbox', refusesEveryNotOrigin(() => server));
});

describe('GET /auth/launch in production', () => {
  let production: TestServer;
  beforeAll(async () => {
    production = await startTestServer({ env: { RAMP_ENV: 'production', RAMP_APP_URL: 'https://app.ramp.example' } });
  });
  afterAll(async () => {
    await production?.close();
  });

  it('answers the invalid_request page for an origin that is not one', refusesEveryNotOrigin(() => production));

  it("answers the 400 example of the reference with the same code and description", async () => {
    const { MissingOrigin, ...others } = pageExamples('get', '400');
    expect(Object.keys(others)).toEqual([]);
    const example = errorPageParts(MissingOrigin!.value);
    expect(example.description).toBeDefined();
    expect(errorPageParts((await launchPage(undefined, production)).text_)).toEqual(example);
  });

  it('takes an https origin only', async () => {
    expect((await launchPage('https://partner.example:8443', production)).status).toBe(200);
    const http = await launchPage('http://partner.example', production);
    expect(oauthError(http.text_)).toBe('invalid_request');
  });

  it('takes an https origin only for the framing of a session too', async () => {
    const partner = await Partner.create(production);
    await partner.register();
    // Both refused origins match the parameter's pattern: production's rules refuse them.
    const launchWith = async (origin: string) =>
      launchJson({ grant_type: jwtBearer, assertion: await partner.sign(), target: '/kyc' }, { origin, on: production });
    expect(oauthError((await launchWith('http://partner.example')).text_)).toBe('invalid_request');
    expect(oauthError((await launchWith('https://*')).text_)).toBe('invalid_request');
    const framed = await launchWith('https://partner.example');
    expect(framed.status).toBe(200);
    expect(framing(await open('/kyc', cookieOf(framed)!, undefined, production))).toEqual(only('https://partner.example'));
  });
});
