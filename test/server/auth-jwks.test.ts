/**
 * Sign-in over time, on a server whose clock the test moves: a JWKS fetched from a
 * `jwksUri` (cached 5 minutes, refetched on an unknown kid at most every 30 s), refresh
 * tokens and sessions ending after 30 days. And the production rules of sign-in.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountingListener } from '../support/connections.ts';
import { jwtBearer, newKey, Partner, tokenRequest, type PartnerKey } from '../support/partner.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { keyedBusinessChild } from '../support/fixtures.ts';

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
  const exchange = async (key?: PartnerKey) => tokenRequest(server, { grant_type: jwtBearer, assertion: await partner.sign({}, { key }) });

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
    const response = await server.call('PUT', '/jwt_issuer', { body: { issuer: partner.issuer, jwksUri: jwks.url } });
    expect(response.status).toBe(200);
    expect(response.json_).toMatchObject({ issuer: partner.issuer, jwksUri: jwks.url });
    expect(response.json_.jwks).toBeUndefined();
    expect(jwks.requests).toBe(1);
  });

  it('verifies from the cache without fetching again', async () => {
    expect((await exchange()).status).toBe(200);
    advance(60);
    expect((await exchange()).status).toBe(200);
    expect(jwks.requests).toBe(1);
  });

  it('refetches on an unknown kid, but at most once every 30 s', async () => {
    jwks.keys = [partner.key.publicJwk, rotated.publicJwk];
    // The last fetch attempt was at registration, 60 s ago: this one may fetch.
    expect((await exchange(rotated)).status).toBe(200);
    expect(jwks.requests).toBe(2);
    const unknown = await newKey('ES256', 'never-published');
    expect((await exchange(unknown)).json_.error).toBe('invalid_grant');
    expect(jwks.requests).toBe(2);
    advance(29);
    expect((await exchange(unknown)).json_.error).toBe('invalid_grant');
    expect(jwks.requests).toBe(2);
    advance(2);
    const refused = await exchange(unknown);
    expect(refused.json_.error).toBe('invalid_grant');
    expect(refused.json_.error_description).toMatch(/kid never-published/);
    expect(jwks.requests).toBe(3);
  });

  it('fetches again after 5 minutes, and keeps the last good keys when that fetch fails', async () => {
    advance(301);
    jwks.status = 503;
    expect((await exchange()).status).toBe(200);
    expect(jwks.requests).toBe(4);
    jwks.status = 200;
    advance(31);
    expect((await exchange()).status).toBe(200);
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
      const response = await server.call('PUT', '/jwt_issuer', { body: { issuer: partner.issuer, jwksUri: `${jwks.url}?v=2` } });
      expect(jwks.requests).toBe(requests + 1);
      expect(response.status).toBe(400);
      expect(response.json_.type).toBe('https://docs.ramp.example/errors/validation-error');
      expect(response.json_.errors).toHaveLength(1);
      expect(response.json_.errors[0].pointer).toBe('/jwksUri');
      details.add(response.json_.errors[0].detail);
      expect(response.text_).not.toContain(secret);
      expect(response.text_).not.toContain(String(status));
      expect(response.text_).not.toMatch(/private|P-256|crv/);
    }
    // Nor does a closed port read differently from a service that answered.
    const closed = await server.call('PUT', '/jwt_issuer', { body: { issuer: partner.issuer, jwksUri: 'http://127.0.0.1:9/jwks.json' } });
    details.add(closed.json_.errors[0].detail);
    expect([...details]).toEqual([expect.stringMatching(/^the JWKS could not be fetched: no acceptable JWKS came back/)]);
    Object.assign(jwks, { status: 200, body: undefined, headers: {} });
    expect((await server.call('GET', '/jwt_issuer')).json_.jwksUri).toBe(jwks.url);
  });

  it('ends a refresh token 30 days after its issue', async () => {
    const tokens = (await exchange()).json_;
    advance(30 * 24 * 3600 - 10);
    const refreshed = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    advance(30 * 24 * 3600 + 1);
    const late = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: refreshed.json_.refresh_token });
    expect(late.json_.error).toBe('invalid_grant');
    expect(late.json_.error_description).toMatch(/expired/);
  });

  it('ends a browser session after 30 days', async () => {
    const launch = await server.call('POST', '/auth/launch', {
      key: null,
      raw: new URLSearchParams({ grant_type: jwtBearer, assertion: await partner.sign({ scope: 'kyc' }), target: '/kyc' }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(launch.status).toBe(200);
    const cookie = launch.headers.get('set-cookie')!.split(';')[0]!;
    expect((await server.call('GET', '/kyc', { key: null, headers: { Cookie: cookie } })).status).toBe(200);
    advance(30 * 24 * 3600 + 1);
    expect((await server.call('GET', '/kyc', { key: null, headers: { Cookie: cookie } })).status).toBe(401);
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
    const response = await server.call('PUT', '/jwt_issuer', { body: { issuer: partner.issuer, jwksUri: 'http://auth.partner.example/jwks.json' } });
    expect(response.status).toBe(400);
    expect(response.json_.errors).toEqual([{ pointer: '/jwksUri', detail: 'must use https in production' }]);
  });

  it('refuses a jwksUri on a loopback, private or local host without connecting to it', async () => {
    const listener = await CountingListener.start();
    try {
      const before = (await server.call('GET', '/jwt_issuer')).json_;
      const { port } = listener;
      for (const host of ['127.0.0.1', '127.1', '2130706433', '[::1]', '[::ffff:127.0.0.1]', '[::127.0.0.1]', 'localhost', 'localhost.', 'jwks.localhost', '0.0.0.0', '169.254.169.254', '10.0.0.8']) {
        const jwksUri = `https://${host}:${port}/.well-known/jwks.json`;
        const response = await server.call('PUT', '/jwt_issuer', { body: { issuer: partner.issuer, jwksUri } });
        expect(response.status, jwksUri).toBe(400);
        expect(response.json_.type).toBe('https://docs.ramp.example/errors/validation-error');
        expect(response.json_.errors).toEqual([{ pointer: '/jwksUri', detail: 'must not point at a loopback, private or local address in production' }]);
      }
      expect(listener.connections).toBe(0);
      expect((await server.call('GET', '/jwt_issuer')).json_).toEqual(before);
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
      const response = await tokenRequest(server, { grant_type: jwtBearer, assertion: await other.sign() });
      expect(response.status).toBe(400);
      expect(response.json_.error).toBe('invalid_grant');
      expect(listener.connections).toBe(0);
    } finally {
      await listener.close();
    }
  });

  it('requires an https origin for the postMessage page', async () => {
    for (const query of ['', '?origin=http://partner.example']) {
      const response = await server.call('GET', `/auth/launch${query}`, { key: null });
      expect(response.status).toBe(400);
      expect(response.text_).toContain('<meta name="oauth-error" content="invalid_request">');
    }
    const ok = await server.call('GET', '/auth/launch?origin=https://partner.example', { key: null });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toContain('frame-ancestors https://partner.example');
  });

  it('sets a Secure cookie and refuses an http return_url', async () => {
    const form = async (fields: Record<string, string>) =>
      server.call('POST', '/auth/launch', {
        key: null,
        raw: new URLSearchParams({ grant_type: jwtBearer, assertion: await partner.sign(), target: '/kyc', ...fields }).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
    const ok = await form({ return_url: 'https://partner.example/wallet' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('set-cookie')).toMatch(/^ramp_session=s_[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    const http = await form({ return_url: 'http://partner.example/wallet' });
    expect(http.status).toBe(400);
    expect(http.text_).toContain('<meta name="oauth-error" content="invalid_request">');
    expect(http.headers.get('set-cookie')).toBeNull();
  });
});
