/**
 * Sign-in over time, on a server whose clock the test moves: a JWKS fetched from a
 * `jwksUri` (cached 5 minutes, refetched on an unknown kid at most every 30 s), refresh
 * tokens and sessions ending after 30 days. And the production rules of sign-in.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountingListener } from '../../support/connections.ts';
import { expectStatus, type Api } from '../../support/api.ts';
import { expectOAuthError, expectProblem } from '../../support/errors.ts';
import { jwtBearer, launchSession, newKey, Partner, requestToken, sessionCookie, type PartnerKey } from '../../support/partner.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { keyedBusinessChild } from '../../support/fixtures.ts';

const putIssuer = (api: Api, issuer: string, jwksUri: string) => api.PUT('/jwt_issuer', { body: { issuer, jwksUri } });
const getIssuer = async (api: Api) => expectStatus(await api.GET('/jwt_issuer'), 200);
const kycPage = (server: TestServer, cookie: string) => server.as(null).GET('/kyc', { headers: { Cookie: cookie }, parseAs: 'text' });

/** A partner's JWKS endpoint: serves `keys`, counts requests. */
class JwksServer {
  keys: JWK[] = [];
  status = 200;
  body: string | undefined;
  headers: Record<string, string> = {};
  requests = 0;
  private server: Server = createServer((_req, res) => {
    this.requests += 1;
    res.writeHead(this.status, { 'Content-Type': 'application/json', ...this.headers });
    res.end(this.body ?? JSON.stringify({ keys: this.keys }));
  });
  url = '';
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`;
    return this;
  }
  close() {
    this.server.closeAllConnections();
    this.server.close();
  }
}

describe('a JWKS fetched from jwksUri, with a moving clock', () => {
  let time = Date.parse('2026-11-02T10:00:00Z');
  const advance = (seconds: number) => {
    time += seconds * 1000;
  };
  let server: TestServer;
  let jwks: JwksServer;
  let partner: Partner;
  let rotated: PartnerKey;
  const exchange = async (key?: PartnerKey) => requestToken(server, { grant_type: jwtBearer, assertion: await partner.sign({}, { key }) });
  const signIn = async (key?: PartnerKey) => expectStatus(await exchange(key), 200);

  beforeAll(async () => {
    server = await startTestServer({ clock: { now: () => new Date(time) } });
    jwks = await new JwksServer().start();
    partner = await Partner.create(server);
    rotated = await newKey('ES256', 'rotated-in');
    jwks.keys = [partner.key.publicJwk];
  });
  afterAll(async () => {
    jwks?.close();
    await server?.close();
  });

  it('fetches the JWKS once when the issuer is registered', async () => {
    const registered = expectStatus(await putIssuer(server.api, partner.issuer, jwks.url), 200);
    expect(registered).toMatchObject({ issuer: partner.issuer, jwksUri: jwks.url });
    expect(registered.jwks).toBeUndefined();
    expect(jwks.requests).toBe(1);
  });

  it('verifies from the cache without fetching again', async () => {
    await signIn();
    advance(60);
    await signIn();
    expect(jwks.requests).toBe(1);
  });

  it('refetches on an unknown kid, but at most once every 30 s', async () => {
    jwks.keys = [partner.key.publicJwk, rotated.publicJwk];
    // The last fetch attempt was at registration, 60 s ago: this one may fetch.
    await signIn(rotated);
    expect(jwks.requests).toBe(2);
    const unknown = await newKey('ES256', 'never-published');
    expectOAuthError(await exchange(unknown), 'invalid_grant');
    expect(jwks.requests).toBe(2);
    advance(29);
    expectOAuthError(await exchange(unknown), 'invalid_grant');
    expect(jwks.requests).toBe(2);
    advance(2);
    expect(expectOAuthError(await exchange(unknown), 'invalid_grant').error_description).toMatch(/kid never-published/);
    expect(jwks.requests).toBe(3);
  });

  it('fetches again after 5 minutes, and keeps the last good keys when that fetch fails', async () => {
    advance(301);
    jwks.status = 503;
    await signIn();
    expect(jwks.requests).toBe(4);
    jwks.status = 200;
    advance(31);
    await signIn();
    expect(jwks.requests).toBe(5);
  });

  it('refuses a jwksUri that answers no acceptable JWKS, keeping the registered one, and never repeats what it answered', async () => {
    // Whatever answers at a jwksUri (here the partner's server; in general any service the
    // server can reach), the refusal is the same words: no status, no body, no key errors.
    const secret = 'internal-service-banner-7f3a';
    const answers: [number, string | undefined, Record<string, string>][] = [
      [503, secret, {}],
      [401, JSON.stringify({ error: secret }), {}],
      [302, '', { Location: `${jwks.url}?moved=${secret}` }],
      [200, `${secret} is not json`, {}],
      [200, JSON.stringify({ keys: [{ ...partner.key.publicJwk, d: 'c2VjcmV0' }] }), {}],
      [200, JSON.stringify({ keys: [{ kty: 'EC', crv: secret, x: 'AA', y: 'AA' }] }), {}],
      [200, JSON.stringify({ keys: [partner.key.publicJwk], padding: secret.repeat(3000) }), {}],
    ];
    const details = new Set<string>();
    for (const [status, body, headers] of answers) {
      Object.assign(jwks, { status, body, headers });
      const requests = jwks.requests;
      const refused = expectProblem(await putIssuer(server.api, partner.issuer, `${jwks.url}?v=2`), 400, 'validation-error');
      expect(jwks.requests).toBe(requests + 1);
      expect(refused.errors).toHaveLength(1);
      expect(refused.errors[0]!.pointer).toBe('/jwksUri');
      details.add(refused.errors[0]!.detail);
      // `instance` is a random urn:uuid, which may hold any digits; the words are the rest.
      const { instance: _instance, ...words } = refused;
      const text = JSON.stringify(words);
      expect(text).not.toContain(secret);
      expect(text).not.toMatch(new RegExp(`\\b${status}\\b`));
      expect(text).not.toMatch(/private|P-256|crv/);
    }
    // Nor does a closed port read differently from a service that answered.
    const closed = expectProblem(await putIssuer(server.api, partner.issuer, 'http://127.0.0.1:9/jwks.json'), 400, 'validation-error');
    details.add(closed.errors[0]!.detail);
    expect([...details]).toEqual([expect.stringMatching(/^the JWKS could not be fetched: no acceptable JWKS came back/)]);
    Object.assign(jwks, { status: 200, body: undefined, headers: {} });
    expect((await getIssuer(server.api)).jwksUri).toBe(jwks.url);
  });

  it('ends a refresh token 30 days after its issue', async () => {
    const tokens = await signIn();
    advance(30 * 24 * 3600 - 10);
    const refreshed = expectStatus(await requestToken(server, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }), 200);
    advance(30 * 24 * 3600 + 1);
    const late = await requestToken(server, { grant_type: 'refresh_token', refresh_token: refreshed.refresh_token });
    expect(expectOAuthError(late, 'invalid_grant').error_description).toMatch(/expired/);
  });

  it('ends a browser session after 30 days', async () => {
    const launch = await launchSession(server, { grant_type: jwtBearer, assertion: await partner.sign({ scope: 'kyc' }), target: '/kyc' });
    expectStatus(launch, 200);
    const cookie = sessionCookie(launch)!;
    expectStatus(await kycPage(server, cookie), 200);
    advance(30 * 24 * 3600 + 1);
    expect((await kycPage(server, cookie)).response.status).toBe(401);
  });
});

describe('sign-in in production', () => {
  let server: TestServer;
  let partner: Partner;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_ENV: 'production', RAMP_APP_URL: 'https://app.ramp.example' } });
    partner = await Partner.create(server);
    await partner.register();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses an http jwksUri', async () => {
    const refused = expectProblem(await putIssuer(server.api, partner.issuer, 'http://auth.partner.example/jwks.json'), 400, 'validation-error');
    expect(refused.errors).toEqual([{ pointer: '/jwksUri', detail: 'must use https in production' }]);
  });

  it('refuses a jwksUri on a loopback, private or local host without connecting to it', async () => {
    const listener = await CountingListener.start();
    try {
      const before = await getIssuer(server.api);
      const { port } = listener;
      for (const host of ['127.0.0.1', '127.1', '2130706433', '[::1]', '[::ffff:127.0.0.1]', '[::127.0.0.1]', 'localhost', 'localhost.', 'jwks.localhost', '0.0.0.0', '169.254.169.254', '10.0.0.8']) {
        const jwksUri = `https://${host}:${port}/.well-known/jwks.json`;
        const refused = expectProblem(await putIssuer(server.api, partner.issuer, jwksUri), 400, 'validation-error', jwksUri);
        expect(refused.errors).toEqual([{ pointer: '/jwksUri', detail: 'must not point at a loopback, private or local address in production' }]);
      }
      expect(listener.connections).toBe(0);
      expect(await getIssuer(server.api)).toEqual(before);
    } finally {
      await listener.close();
    }
  });

  it('never fetches from a loopback jwksUri stored before the rule: the sign-in is invalid_grant', async () => {
    const listener = await CountingListener.start();
    try {
      const other = await Partner.create(server, (await keyedBusinessChild(server)).key);
      await other.register();
      // A row the API would refuse now, as an older registration left it.
      await server.services.storage.db.updateTable('jwt_issuers')
        .set({ jwks: null, jwks_uri: `https://127.0.0.1:${listener.port}/jwks.json`, fetched_jwks: null, fetched_at: null, fetch_attempted_at: null })
        .where('issuer', '=', other.issuer).execute();
      expectOAuthError(await requestToken(server, { grant_type: jwtBearer, assertion: await other.sign() }), 'invalid_grant');
      expect(listener.connections).toBe(0);
    } finally {
      await listener.close();
    }
  });

  it('requires an https origin for the postMessage page', async () => {
    const page = (origin?: string) => server.as(null).GET('/auth/launch', { params: { query: origin === undefined ? {} : { origin } }, parseAs: 'text' });
    for (const origin of [undefined, 'http://partner.example']) {
      const refused = await page(origin);
      expect(refused.response.status).toBe(400);
      expect(refused.error).toContain('<meta name="oauth-error" content="invalid_request">');
    }
    const ok = await page('https://partner.example');
    expectStatus(ok, 200);
    expect(ok.response.headers.get('content-security-policy')).toContain('frame-ancestors https://partner.example');
  });

  it('sets a Secure cookie and refuses an http return_url', async () => {
    const form = async (returnUrl: string) => launchSession(server, { grant_type: jwtBearer, assertion: await partner.sign(), target: '/kyc', return_url: returnUrl });
    const ok = await form('https://partner.example/wallet');
    expectStatus(ok, 200);
    expect(ok.response.headers.get('set-cookie')).toMatch(/^ramp_session=s_[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    const http = await form('http://partner.example/wallet');
    expect(http.response.status).toBe(400);
    expect(http.error).toContain('<meta name="oauth-error" content="invalid_request">');
    expect(http.response.headers.get('set-cookie')).toBeNull();
  });
});
