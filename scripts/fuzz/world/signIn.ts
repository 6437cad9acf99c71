/**
 * P's keys and sign-in: spare API keys, P's JWT issuer, the app pages' session, refresh
 * tokens and JWTs for the whole run, and the lookup surface's reads.
 */
import { randomUUID } from 'node:crypto';
import { assertion, issuer, range, type Context, type Json } from './context.ts';

/** Spare keys of P for deleteApiKey; answers the seed key's id, which deleteApiKey must spare. */
export async function apiKeys({ api, P, add, request }: Context) {
  // --- API keys of P, the only organization that holds keys: a key creates keys for its own
  // organization only, and no customer gets a first one. The key Schemathesis sends is P's
  // seed key; hooks.py keeps deleteApiKey off it (revoked, it would make the rest of the run
  // 401). Spare keys for deleteApiKey to revoke, one for its example: with the seed key that
  // is 4 active, so createApiKey's example has the fifth.
  const ownKeys = (await api.get(`/organization/${P}/api_keys`)).items as Json[];
  if (ownKeys.length !== 1) throw new Error(`world: the partner holds ${ownKeys.length} keys, expected its seed key alone`);
  for (const _ of range(2)) add('api-keys-disposable', (await api.post(`/organization/${P}/api_key`)).id);
  request('deleteApiKey', { path: { organizationId: P, id: (await api.post(`/organization/${P}/api_key`)).id } });
  request('createApiKey', { path: { organizationId: P } });
  request('listApiKeys', { path: { organizationId: P } });
  return ownKeys[0]!.id as string;
}

/** P's issuer and what it signs; answers the app pages' session cookie. */
export async function signIn({ api, options, add, request }: Context) {
  // --- Sign-in: P's issuer signs every JWT below; the loopback JWKS of setJwtIssuer's
  // jwksUri serves the same key, and its issuer is in the `jwt-issuers` pool, so a fuzzed
  // PUT /jwt_issuer that registers them keeps these JWTs valid (one with another issuer or
  // key ends their use; refresh tokens and sessions live on). ---
  const partner = await issuer(api, options.apiKey, 'partner');
  options.serveJwks(partner.publicJwk);
  add('jwt-issuers', partner.iss);
  const audience = `${options.base}/auth/token`;
  const person0 = randomUUID();
  const now = Math.floor(Date.now() / 1000);
  const jwt = () => assertion(partner, audience, person0, now);
  // The app pages' session: every scope, from a grant whose refresh token no one else sees
  // (reusing a refresh token revokes its whole sign-in, sessions included).
  const launched = await api.call('POST', '/auth/launch', { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: await jwt(), target: '/account' }, { key: null, form: true });
  const session = /ramp_session=([^;]+)/.exec(launched.headers.get('set-cookie') ?? '')?.[1];
  if (!session) throw new Error('world: POST /auth/launch set no ramp_session cookie');
  // Refresh tokens, each from a sign-in of its own, so one reuse revokes only its own.
  for (const pool of ['refresh-tokens-token', 'refresh-tokens-launch']) {
    for (const _ of range(25)) {
      const tokens = await api.post('/auth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: await jwt() }, { key: null, form: true });
      add(pool, tokens.refresh_token);
    }
  }
  // Assertions for consecutive windows: the one issued at t is accepted on [t − 60, t + 360].
  for (let start = now; start < now + options.coverSeconds + 240; start += 240) {
    for (const pool of ['assertions-token', 'assertions-launch']) {
      for (const _ of range(15)) add(pool, await assertion(partner, audience, person0, start));
    }
  }
  add('launch-targets', '/account', '/kyc', '/kyb', '/onramp?amount=100', '/offramp', '/swap');
  // Sign-in's examples take refresh tokens of sign-ins of their own: they do not expire within
  // a run, where a JWT is accepted for minutes only.
  const refreshToken = async () =>
    (await api.post('/auth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: await jwt() }, { key: null, form: true })).refresh_token as string;
  request('createToken', { body: { grant_type: 'refresh_token', refresh_token: await refreshToken() } });
  request('launchSession', { body: { grant_type: 'refresh_token', refresh_token: await refreshToken(), target: '/account' } });
  request('getLaunchPage', {});
  for (const page of ['getKycPage', 'getKybPage', 'getOnrampPage', 'getOfframpPage', 'getSwapPage', 'getAccountPage']) request(page, {});
  request('getJwtIssuer', {});
  // P's issuer again (hooks.py sends it after the contract's own examples, one of which
  // registers another issuer): the examples phase leaves the JWTs above valid.
  request('setJwtIssuer', { body: { issuer: partner.iss, jwks: { keys: [partner.publicJwk] } } });
  for (const operationId of ['listTokenCosts', 'listBondCosts', 'listCountryCodes', 'listRestrictedCountries', 'getExchangeRates']) request(operationId, {});
  request('getTokenCost', { path: { identifier: 'CETES' } });
  request('getBondCost', { path: { identifier: 'CETES' } });
  // setJwtIssuer's jwksUri: the session serves this JWKS on loopback.
  add('jwks-uris', options.jwksUri);
  return session;
}
