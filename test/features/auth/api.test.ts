/**
 * Partner sign-in over HTTP: `PUT/GET /jwt_issuer`, `POST /auth/token` with every JWT rule
 * and each refusal's OAuth error, refresh-token rotation and reuse.
 */
import { createHmac, createPublicKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapSeedKey } from '../../../server/features/apiKeys/bootstrap.ts';
import { formatApiKey, newKeyId } from '../../../server/features/apiKeys/rules.ts';
import { expectStatus, type RawRequest, type RequestBody } from '../../support/api.ts';
import { loadBundle } from '../../support/documents.ts';
import { expectOAuthError, expectProblem } from '../../support/errors.ts';
import { contractJwk, htmlPage, jwtBearer, launchSession, newKey, Partner, rawJwt, requestToken } from '../../support/partner.ts';
import type { Schema } from '../../../client/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

let server: TestServer;
let partner: Partner;

/** A second business partner on the same server, with its own key. */
async function otherPartner(): Promise<Partner> {
  const apiKey = formatApiKey('sand', newKeyId(), randomUUID());
  await bootstrapSeedKey(server.services.storage, { ...server.services.config, seedApiKey: apiKey }, new Date());
  const other = await Partner.create(server, apiKey);
  await other.register();
  return other;
}

/**
 * A 1024-bit RSA key whose `n` carries 128 leading zero bytes, so its base64url is as long
 * as a 2048-bit modulus, and RS256 JWTs signed with it (jose refuses to sign with it).
 */
function shortRsaKey() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const jwk = publicKey.export({ format: 'jwk' });
  const n = Buffer.concat([Buffer.alloc(128), Buffer.from(jwk.n!, 'base64url')]).toString('base64url');
  const kid = `short-${randomUUID().slice(0, 8)}`;
  return {
    publicJwk: { ...jwk, n, kid, alg: 'RS256', use: 'sig' },
    sign(claims: Record<string, unknown>, options: { kid?: boolean } = {}) {
      const unsigned = rawJwt({ alg: 'RS256', ...(options.kid === false ? {} : { kid }), typ: 'JWT' }, claims).slice(0, -1);
      return `${unsigned}.${sign('sha256', Buffer.from(unsigned), privateKey).toString('base64url')}`;
    },
  };
}

const exchange = (assertion: string) => requestToken(server, { grant_type: jwtBearer, assertion });
const refresh = (refreshToken: string) => requestToken(server, { grant_type: 'refresh_token', refresh_token: refreshToken });
/** The tokens of a sign-in that must succeed. */
const signIn = async (assertion: string) => expectStatus(await exchange(assertion), 200);
const issuer = (key: string = server.key) => server.as(key).GET('/jwt_issuer');
const organization = (organizationId: string) => server.api.GET('/organization/{organizationId}', { params: { path: { organizationId } } });
const now = () => Math.floor(Date.now() / 1000);
/** A token request as form fields (or a raw form), with no key: as sent, whatever the contract says of it. */
const form = (fields: Record<string, string> | string, headers: Record<string, string> = {}): RawRequest => ({
  key: null,
  raw: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
});

beforeAll(async () => {
  server = await startTestServer();
  partner = await Partner.create(server);
});
afterAll(async () => {
  await server?.close();
});

describe('PUT /jwt_issuer and GET /jwt_issuer', () => {
  it('answers 404 not-found before an issuer is registered', async () => {
    expectProblem(await issuer(), 404, 'not-found');
  });

  it('registers an inline JWKS and shows it back', async () => {
    const registered = await partner.register();
    expect(registered).toMatchObject({ organizationId: server.partnerId, issuer: partner.issuer, jwks: { keys: [partner.key.publicJwk] } });
    expect(registered.jwksUri).toBeUndefined();
    expect(expectStatus(await issuer(), 200)).toEqual(registered);
  });

  it('keeps createdAt and moves updatedAt when replaced', async () => {
    const before = expectStatus(await issuer(), 200);
    const again = await partner.register();
    expect(again.createdAt).toBe(before.createdAt);
    expect(again.updatedAt >= before.updatedAt).toBe(true);
  });

  it('needs the API key', async () => {
    expectProblem(await server.as(null).GET('/jwt_issuer'), 401, 'unauthorized');
  });

  const jwk = () => contractJwk(partner.key.publicJwk);
  const refused: [string, () => Promise<RequestBody<'setJwtIssuer'>>, string][] = [
    ['both jwks and jwksUri', async () => ({ issuer: 'https://x.example', jwks: { keys: [jwk()] }, jwksUri: 'https://x.example/jwks' }), ''],
    ['neither jwks nor jwksUri', async () => ({ issuer: 'https://x.example' }), ''],
    ['a private key', async () => ({ issuer: 'https://x.example', jwks: { keys: [{ ...jwk(), d: 'c2VjcmV0' }] } }), ''],
    ['an EC key on P-384', async () => {
      const { alg: _, ...publicJwk } = contractJwk((await newKey('ES256')).publicJwk);
      return { issuer: 'https://x.example', jwks: { keys: [{ ...publicJwk, crv: 'P-384' }] } };
    }, '/jwks/keys/0'],
    ['a key whose alg is HS256', async () => ({ issuer: 'https://x.example', jwks: { keys: [{ ...jwk(), alg: 'HS256' }] } }), '/jwks/keys/0'],
    ['an RSA key of 1024 bits', async () => {
      const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
      return { issuer: 'https://x.example', jwks: { keys: [contractJwk(publicKey.export({ format: 'jwk' }))] } };
    }, '/jwks/keys/0'],
    ['an RSA key of 1024 bits whose n is zero-padded to the length of 2048', async () => ({ issuer: 'https://x.example', jwks: { keys: [contractJwk(shortRsaKey().publicJwk)] } }), '/jwks/keys/0'],
    ['two keys with one kid', async () => ({ issuer: 'https://x.example', jwks: { keys: [jwk(), contractJwk((await newKey('ES256', partner.key.kid)).publicJwk)] } }), '/jwks/keys/1/kid'],
    ['a jwksUri that does not answer', async () => ({ issuer: 'https://x.example', jwksUri: 'http://127.0.0.1:9/jwks.json' }), '/jwksUri'],
  ];
  for (const [what, body, pointer] of refused) {
    it(`refuses ${what} with validation-error, changing nothing`, async () => {
      const before = expectStatus(await issuer(), 200);
      const response = expectProblem(await server.api.PUT('/jwt_issuer', { body: await body() }), 400, 'validation-error');
      if (pointer) expect(response.errors.map((e) => e.pointer)).toContain(pointer);
      expect(expectStatus(await issuer(), 200)).toEqual(before);
    });
  }

  it('gives an issuer to one organization only: another one gets 409 conflict', async () => {
    const other = await otherPartner();
    const response = await server.as(other.apiKey).PUT('/jwt_issuer', { body: { issuer: partner.issuer, jwks: { keys: [contractJwk(other.key.publicJwk)] } } });
    expectProblem(response, 409, 'conflict');
    expect(expectStatus(await issuer(other.apiKey), 200).issuer).toBe(other.issuer);
  });
});

describe('POST /auth/token with a partner JWT', () => {
  beforeAll(async () => {
    await partner.register();
  });

  it('signs a person in: tokens, no-store, and the customer created under the partner', async () => {
    const sub = randomUUID();
    const response = await exchange(await partner.sign({ sub, scope: 'onramp kyc', name: 'Ana López' }));
    const tokens = expectStatus(response, 200);
    expect(response.response.headers.get('cache-control')).toBe('no-store');
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'onramp kyc' });
    expect(tokens.access_token).toMatch(/^at_[\w-]{40,}$/);
    expect(tokens.refresh_token).toMatch(/^rt_[\w-]{40,}$/);
    expect(expectStatus(await organization(sub), 200)).toMatchObject({ organizationId: sub, displayName: 'Ana López', type: 'personal', parentOrganizationId: server.partnerId });
  });

  it('accepts a JSON body, an upper-case UUID sub, and signs the same person in again', async () => {
    const sub = randomUUID();
    expectStatus(await requestToken(server, { grant_type: jwtBearer, assertion: await partner.sign({ sub: sub.toUpperCase() }) }, { json: true }), 200);
    await signIn(await partner.sign({ sub, name: 'Another Name' }));
    expect(expectStatus(await organization(sub), 200)).toMatchObject({ organizationId: sub, displayName: 'Ana López' });
  });

  it('takes a UUID sub in its string form only, as every UUID of the API: a urn:uuid: sub is not a customer', async () => {
    const sub = randomUUID();
    await signIn(await partner.sign({ sub: `urn:uuid:${sub}` }));
    expectProblem(await organization(sub), 404, 'not-found');
  });

  it('signs a non-UUID sub in without making it addressable', async () => {
    const count = async () => expectStatus(await server.api.GET('/organizations', { params: { query: { pageSize: 1 } } }), 200).totalItems;
    const before = await count();
    await signIn(await partner.sign({ sub: 'user-42@partner' }));
    expect(await count()).toBe(before);
  });

  it('accepts RS256 and EdDSA keys, a nonce instead of a jti, and a JWT without kid', async () => {
    const rsa = await newKey('RS256');
    const ed = await newKey('EdDSA');
    const ec2 = await newKey('ES256');
    await partner.register([partner.key.publicJwk, rsa.publicJwk, ed.publicJwk, ec2.publicJwk]);
    try {
      await signIn(await partner.sign({}, { key: rsa }));
      await signIn(await partner.sign({}, { key: ed }));
      await signIn(await partner.sign({ jti: undefined, nonce: randomUUID() }));
      // Two EC keys and no kid: every candidate is tried.
      await signIn(await partner.sign({}, { key: ec2, header: { kid: undefined } }));
    } finally {
      await partner.register();
    }
  });

  it('accepts the token endpoint as aud, as a string or as an array holding only it', async () => {
    for (const aud of [partner.audience, [partner.audience], [partner.audience, partner.audience]]) {
      await signIn(await partner.sign({ aud }));
    }
  });

  it('accepts an expiry within the 60 s leeway', async () => {
    await signIn(await partner.sign({ iat: now() - 100, exp: now() - 30 }));
  });

  const refusals: [string, () => Promise<string>, Schema<'OAuthError'>['error'], RegExp][] = [
    ['an expired JWT', () => partner.sign({ iat: now() - 400, exp: now() - 120 }), 'invalid_grant', /expired/],
    ['a JWT not yet valid (nbf)', () => partner.sign({ nbf: now() + 120 }), 'invalid_grant', /not yet valid/],
    ['a JWT issued in the future', () => partner.sign({ iat: now() + 120, exp: now() + 240 }), 'invalid_grant', /not yet valid/],
    ['a lifetime over 5 minutes', () => partner.sign({ iat: now(), exp: now() + 301 }), 'invalid_grant', /at most 300/],
    ['a JWT without exp', () => partner.sign({ exp: undefined }), 'invalid_grant', /exp/],
    ['a JWT without iat', () => partner.sign({ iat: undefined }), 'invalid_grant', /iat/],
    // NumericDates no date can hold (beyond ±8.64e12 s): refused as malformed, never a 500 naming them.
    ['an iat of 1e13', () => partner.sign({ iat: 1e13 }), 'invalid_grant', /iat claim is required \(a NumericDate/],
    ['an iat of -1e13', () => partner.sign({ iat: -1e13 }), 'invalid_grant', /iat claim is required \(a NumericDate/],
    ['an nbf of 1e13', () => partner.sign({ nbf: 1e13 }), 'invalid_grant', /nbf claim must be a NumericDate/],
    ['an exp of -1e13', () => partner.sign({ exp: -1e13 }), 'invalid_grant', /exp claim is required \(a NumericDate/],
    ['an exp of 1e13', () => partner.sign({ exp: 1e13 }), 'invalid_grant', /exp claim is required \(a NumericDate/],
    ['a wrong audience', () => partner.sign({ aud: 'https://api.ramp.example/auth/token' }), 'invalid_grant', /aud/],
    ['a missing audience', () => partner.sign({ aud: undefined }), 'invalid_grant', /aud/],
    // An array is taken only when it holds the token endpoint alone: a JWT meant for another
    // audience too could be replayed here by that audience.
    ['an audience array naming another audience first', () => partner.sign({ aud: ['https://evil.example', partner.audience] }), 'invalid_grant', /aud/],
    ['an audience array naming another audience after', () => partner.sign({ aud: [partner.audience, 'https://evil.example/auth/token'] }), 'invalid_grant', /aud/],
    ['an empty audience array', () => partner.sign({ aud: [] }), 'invalid_grant', /aud/],
    ['an audience array with a number', () => partner.sign({ aud: [partner.audience, 7] }), 'invalid_grant', /aud/],
    ['an audience that is a number', () => partner.sign({ aud: 7 }), 'invalid_grant', /aud/],
    ['an audience with a trailing slash', () => partner.sign({ aud: `${partner.audience}/` }), 'invalid_grant', /aud/],
    ['an unregistered issuer', () => partner.sign({ iss: 'https://auth.stranger.example' }), 'invalid_grant', /not registered/],
    ['an unknown kid', async () => partner.sign({}, { key: await newKey('ES256', 'not-registered') }), 'invalid_grant', /kid not-registered/],
    ['a signature by another key under the registered kid', async () => partner.sign({}, { key: await newKey('ES256', partner.key.kid) }), 'invalid_grant', /signature/],
    ['alg none', async () => rawJwt({ alg: 'none', typ: 'JWT' }, partner.claims()), 'invalid_grant', /alg "none"/],
    ['an HS256 JWT signed with the public key as HMAC secret', async () => {
      const pem = createPublicKey({ key: partner.key.publicJwk as never, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
      const unsigned = rawJwt({ alg: 'HS256', typ: 'JWT', kid: partner.key.kid }, partner.claims()).slice(0, -1);
      return `${unsigned}.${createHmac('sha256', pem).update(unsigned).digest('base64url')}`;
    }, 'invalid_grant', /alg "HS256"/],
    ['a key carried in the jwk header', async () => {
      const attacker = await newKey('ES256', 'attacker');
      return partner.sign({}, { key: attacker, header: { jwk: attacker.publicJwk } });
    }, 'invalid_grant', /kid attacker/],
    ['no jti and no nonce', () => partner.sign({ jti: undefined }), 'invalid_grant', /jti or nonce/],
    ['no sub', () => partner.sign({ sub: undefined }), 'invalid_grant', /sub/],
    ['a business sub (the partner itself)', () => partner.sign({ sub: server.partnerId }), 'invalid_grant', /business/],
    ['a missing email', () => partner.sign({ email: undefined }), 'invalid_grant', /email/],
    ['a missing name', () => partner.sign({ name: undefined }), 'invalid_grant', /name/],
    ['a name over 200 characters', () => partner.sign({ name: 'A'.repeat(201) }), 'invalid_grant', /name/],
    ['an email without @', () => partner.sign({ email: 'ana' }), 'invalid_grant', /email/],
    ['a picture that is no URL', () => partner.sign({ picture: 'javascript:alert(1)' }), 'invalid_grant', /picture/],
    ['a jti of 256 characters', () => partner.sign({ jti: 'j'.repeat(256) }), 'invalid_grant', /jti/],
    ['an unknown scope', () => partner.sign({ scope: 'kyc payouts' }), 'invalid_scope', /payouts/],
    ['a missing scope', () => partner.sign({ scope: undefined }), 'invalid_scope', /scope/],
    ['an empty scope', () => partner.sign({ scope: ' ' }), 'invalid_scope', /empty/],
    ['something that is not a JWT', async () => 'not.a.jwt', 'invalid_grant', /compact/],
  ];
  for (const [what, assertion, error, description] of refusals) {
    it(`refuses ${what} with ${error}`, async () => {
      expect(expectOAuthError(await exchange(await assertion()), error).error_description).toMatch(description);
    });
  }

  it('answers NumericDates no date can hold with the error page at /auth/launch, as invalid_grant', async () => {
    for (const claims of [{ iat: 1e13 }, { nbf: 1e13 }, { exp: -1e13 }]) {
      const launch = htmlPage(await launchSession(server, { grant_type: jwtBearer, assertion: await partner.sign(claims), target: '/kyc' }));
      expect(launch.status, JSON.stringify(claims)).toBe(400);
      expect(launch.headers.get('content-type')).toMatch(/^text\/html/);
      expect(launch.text_).toContain('<meta name="oauth-error" content="invalid_grant">');
    }
  });

  it('never fetches keys from a jku header', async () => {
    let fetched = 0;
    const attackerServer: Server = createServer((_req, res) => {
      fetched += 1;
      res.end('{}');
    });
    await new Promise<void>((resolve) => attackerServer.listen(0, '127.0.0.1', resolve));
    try {
      const jku = `http://127.0.0.1:${(attackerServer.address() as AddressInfo).port}/jwks.json`;
      const attacker = await newKey('ES256', 'jku-key');
      expectOAuthError(await exchange(await partner.sign({}, { key: attacker, header: { jku, x5u: jku } })), 'invalid_grant');
      expect(fetched).toBe(0);
    } finally {
      attackerServer.close();
    }
  });

  it('refuses a replayed jti, and a replayed nonce', async () => {
    const assertion = await partner.sign();
    await signIn(assertion);
    expect(expectOAuthError(await exchange(assertion), 'invalid_grant').error_description).toMatch(/jti has been used/);
    const jti = randomUUID();
    await signIn(await partner.sign({ jti }));
    expectOAuthError(await exchange(await partner.sign({ jti })), 'invalid_grant');
    const nonce = randomUUID();
    await signIn(await partner.sign({ jti: undefined, nonce }));
    expectOAuthError(await exchange(await partner.sign({ jti: undefined, nonce })), 'invalid_grant');
  });

  it('changes nothing when it refuses: the jti stays unused and no customer is created', async () => {
    const jti = randomUUID();
    const sub = randomUUID();
    expectOAuthError(await exchange(await partner.sign({ jti, sub: server.partnerId })), 'invalid_grant');
    expectOAuthError(await exchange(await partner.sign({ jti, sub, scope: 'kyc payouts' })), 'invalid_scope');
    expectProblem(await organization(sub), 404, 'not-found');
    await signIn(await partner.sign({ jti, sub }));
  });

  it("refuses a sub naming another partner's customer", async () => {
    const other = await otherPartner();
    const sub = randomUUID();
    await signIn(await other.sign({ sub }));
    expect(expectOAuthError(await exchange(await partner.sign({ sub })), 'invalid_grant').error_description).toMatch(/another organization/);
  });

  it('refuses a JWT of an issuer signed with the key of another partner', async () => {
    const other = await otherPartner();
    expectOAuthError(await exchange(await partner.sign({}, { key: other.key })), 'invalid_grant');
  });

  it('answers invalid_grant, at /auth/token and /auth/launch, when the stored key cannot verify (a short RSA key registered before the modulus was measured)', async () => {
    const other = await otherPartner();
    const short = shortRsaKey();
    // The API refuses this key now; an issuer row written before that still holds it.
    await server.services.storage.db.updateTable('jwt_issuers').set({ jwks: JSON.stringify({ keys: [short.publicJwk] }) }).where('issuer', '=', other.issuer).execute();
    const assertion = () => short.sign(other.claims());
    expect(expectOAuthError(await exchange(assertion()), 'invalid_grant').error_description).toMatch(/key/);
    const launch = await server.as(null).POST('/auth/launch', {
      body: { grant_type: jwtBearer, assertion: assertion(), target: '/kyc' },
      bodySerializer: (fields) => new URLSearchParams(Object.entries(fields)).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      parseAs: 'text',
    });
    expect(launch.response.status).toBe(400);
    expect(launch.error).toContain('<meta name="oauth-error" content="invalid_grant">');
    // Without a kid, each of several stored keys is tried: the same answer.
    const second = shortRsaKey();
    const keys = [short.publicJwk, second.publicJwk].map(({ kid: _, ...key }) => key);
    await server.services.storage.db.updateTable('jwt_issuers').set({ jwks: JSON.stringify({ keys }) }).where('issuer', '=', other.issuer).execute();
    expectOAuthError(await exchange(second.sign(other.claims(), { kid: false })), 'invalid_grant');
  });
});

describe('POST /auth/token: malformed requests', () => {
  // Requests the contract refuses, so sent as they are (form).
  const cases: [string, () => Promise<RawRequest>, Schema<'OAuthError'>['error']][] = [
    ['an unknown grant_type', async () => form({ grant_type: 'password', username: 'ana' }), 'unsupported_grant_type'],
    ['an unknown grant_type in JSON', async () => ({ key: null, body: { grant_type: 'client_credentials' } }), 'unsupported_grant_type'],
    ['no grant_type', async () => form({ assertion: 'x' }), 'invalid_request'],
    ['no assertion', async () => form({ grant_type: jwtBearer }), 'invalid_request'],
    ['no refresh_token', async () => form({ grant_type: 'refresh_token' }), 'invalid_request'],
    ['a repeated grant_type', async () => form('grant_type=refresh_token&grant_type=refresh_token&refresh_token=x'), 'invalid_request'],
    ['a text/plain body', async () => ({ key: null, raw: 'grant_type=refresh_token', headers: { 'Content-Type': 'text/plain' } }), 'invalid_request'],
    ['malformed JSON', async () => ({ key: null, raw: '{"grant_type":', headers: { 'Content-Type': 'application/json' } }), 'invalid_request'],
    ['an API key in Authorization', async () => form({ grant_type: jwtBearer, assertion: await partner.sign() }, { Authorization: server.key }), 'invalid_request'],
  ];
  for (const [what, request, error] of cases) {
    it(`answers ${what} with 400 ${error}`, async () => {
      expectOAuthError(await server.sendRaw('POST', '/auth/token', await request()), error);
    });
  }

  it('reads a form as its parser does: a pair without a name is dropped, whatever its value', async () => {
    // Not a NUL the server refuses (shared/requestLimits.ts): one it never reads.
    const answer = expectOAuthError(await server.sendRaw('POST', '/auth/token', form('grant_type=refresh_token&refresh_token=rt_unknown&=%00&=x')), 'invalid_grant');
    expect(answer.error_description).toMatch(/refresh token/);
  });

  it("tells a missing grant field in the same words in a form and in JSON", async () => {
    for (const [fields, name] of [[{ grant_type: jwtBearer }, 'assertion'], [{ grant_type: 'refresh_token' }, 'refresh_token']] as const) {
      const asForm = expectOAuthError(await server.sendRaw('POST', '/auth/token', form(fields)), 'invalid_request');
      const asJson = expectOAuthError(await server.sendRaw('POST', '/auth/token', { key: null, body: fields }), 'invalid_request');
      expect(asForm.error_description).toBe(`The ${name} parameter is required.`);
      expect(asJson.error_description).toBe(asForm.error_description);
    }
  });
});

describe('POST /auth/token: the 400 examples of the reference', () => {
  // A partner reads these in the reference: each is what the sandbox answers, word for word.
  const examples = loadBundle('auth').paths['/auth/token'].post.responses['400'].content['application/json'].examples as Record<string, { value: Schema<'OAuthError'> }>;
  const expiredAt = Date.parse('2026-05-14T16:36:07Z') / 1000;
  const answers: Record<string, () => Promise<Parameters<typeof expectOAuthError>[0]>> = {
    InvalidRequest: () => server.sendRaw('POST', '/auth/token', form({ grant_type: jwtBearer })),
    InvalidGrant: async () => exchange(await partner.sign({ iat: expiredAt - 240, exp: expiredAt })),
    InvalidGrantReusedRefreshToken: async () => {
      const { refresh_token: used } = await signIn(await partner.sign());
      expectStatus(await refresh(used), 200);
      return refresh(used);
    },
    InvalidGrantBusinessSubject: async () => exchange(await partner.sign({ sub: server.partnerId })),
    InvalidScope: async () => exchange(await partner.sign({ scope: 'kyc payouts' })),
    UnsupportedGrantType: () => server.sendRaw('POST', '/auth/token', form({ grant_type: 'password', username: 'ana' })),
  };

  beforeAll(async () => {
    await partner.register();
  });

  it('has a request here for every example', () => {
    expect(Object.keys(answers).sort()).toEqual(Object.keys(examples).sort());
  });
  for (const [name, answer] of Object.entries(answers)) {
    it(`${name}: answers the example`, async () => {
      const { value } = examples[name]!;
      expect(expectOAuthError(await answer(), value.error)).toEqual(value);
    });
  }
});

describe('refresh tokens', () => {
  beforeAll(async () => {
    await partner.register();
  });

  it('rotate: a refresh gives new tokens with the same scope, and the old one is refused', async () => {
    const first = await signIn(await partner.sign({ scope: 'kyb' }));
    const refreshed = await refresh(first.refresh_token);
    const second = expectStatus(refreshed, 200);
    expect(refreshed.response.headers.get('cache-control')).toBe('no-store');
    expect(second).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'kyb' });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect(expectStatus(await refresh(second.refresh_token), 200).scope).toBe('kyb');
  });

  it('refuses a reused refresh token and revokes the whole sign-in', async () => {
    const first = await signIn(await partner.sign());
    const second = expectStatus(await refresh(first.refresh_token), 200);
    expect(expectOAuthError(await refresh(first.refresh_token), 'invalid_grant').error_description).toMatch(/already been used/);
    // The newest one was issued to whoever reused the old one, or the other way round: both go.
    expect(expectOAuthError(await refresh(second.refresh_token), 'invalid_grant').error_description).toMatch(/revoked/);
  });

  it('lets exactly one of two simultaneous refreshes with one token through', async () => {
    const first = await signIn(await partner.sign());
    const answers = await Promise.all([refresh(first.refresh_token), refresh(first.refresh_token)]);
    expect(answers.map((a) => a.response.status).sort()).toEqual([200, 400]);
  });

  it('refuses an unknown refresh token, and an access token used as one', async () => {
    const tokens = await signIn(await partner.sign());
    expectOAuthError(await refresh('rt_unknown'), 'invalid_grant');
    expectOAuthError(await refresh(tokens.access_token), 'invalid_grant');
    // Neither attempt touched the real one.
    expectStatus(await refresh(tokens.refresh_token), 200);
  });
});


