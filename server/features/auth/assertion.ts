/**
 * Verifying a partner-signed JWT (createToken's jwt-bearer grant, rules designed in openapi/paths/auth/auth_token.yaml):
 * asymmetric algorithms only, keys only from the registered issuer's JWKS (never from the
 * token's `jwk`, `jku` or `x5u` headers), the token endpoint as the only audience, required
 * and bounded times, required `jti`/`nonce`, `sub`, `email`, `name`, and a recognized
 * `scope`. Everything here is read-only; remembering the `jti` happens with the sign-in
 * (signIn.ts).
 */
import { compactVerify, createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors as jose, type CompactVerifyResult, type JWTPayload } from 'jose';
import { OAuthError } from '../../shared/problems.ts';
import { refusedValue } from '../../shared/requestLimits.ts';
import type { Services } from '../../services.ts';
import { jwtIssuersRepository, type JwtIssuerRow } from './repository.ts';
import { issuerKeys } from './issuers.ts';
import type { Jwks } from './jwks.ts';
import { acceptedAlgorithms, clockLeewaySeconds, maxAssertionLifetimeSeconds, parseScope, type Flow } from './rules.ts';

export interface VerifiedAssertion {
  issuer: JwtIssuerRow;
  subject: string;
  email: string;
  name: string;
  picture: string | null;
  scopes: Flow[];
  /** `jti:<value>` and/or `nonce:<value>`: what is remembered against replays. */
  replayKeys: string[];
  /** Until when the replay key must be remembered (exp plus the leeway). */
  rememberUntil: Date;
}

const grant = (description: string) => new OAuthError('invalid_grant', description);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

export async function verifyAssertion(services: Services, jwt: string): Promise<VerifiedAssertion> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  let unverified: JWTPayload;
  try {
    header = decodeProtectedHeader(jwt);
    unverified = decodeJwt(jwt);
  } catch {
    throw grant('The assertion is not a signed JWT in compact serialization.');
  }
  // Its strings meet the rule of every string a request carries (shared/requestLimits.ts)
  // before any of them is looked up: `iss` names the issuer to find, and the verified claims
  // are the same text.
  for (const [part, value] of [['header', header], ['payload', unverified]] as const) {
    const refused = refusedValue(value, Infinity);
    if (refused) throw new OAuthError('invalid_request', `The assertion's ${part}${refused.pointer === '/' ? '' : ` at ${refused.pointer}`} ${refused.detail}.`);
  }
  // Checked before any key is touched: `none` and HMAC (where the "secret" could be our
  // copy of the public key) never reach verification.
  if (typeof header.alg !== 'string' || !(acceptedAlgorithms as readonly string[]).includes(header.alg)) {
    throw grant(`The assertion's alg ${JSON.stringify(header.alg ?? null)} is not accepted; sign with ${acceptedAlgorithms.join(', ')}.`);
  }
  if (typeof unverified.iss !== 'string' || unverified.iss === '') throw grant('The iss claim is required.');
  const issuer = await jwtIssuersRepository(services.storage.db).findByIssuer(unverified.iss);
  if (!issuer) throw grant(`The issuer ${unverified.iss} is not registered; register it with PUT /jwt_issuer.`);

  const payload = await verifySignature(services, issuer, jwt, header.kid);
  return checkClaims(services, issuer, payload);
}

async function verifySignature(services: Services, issuer: JwtIssuerRow, jwt: string, kid: string | undefined): Promise<JWTPayload> {
  const attempt = async (jwks: Jwks | undefined): Promise<CompactVerifyResult | 'no-key'> => {
    if (!jwks) return 'no-key';
    const options = { algorithms: [...acceptedAlgorithms] };
    try {
      return await compactVerify(jwt, createLocalJWKSet(jwks), options);
    } catch (error) {
      if (error instanceof jose.JWKSNoMatchingKey) return 'no-key';
      if (!(error instanceof jose.JWKSMultipleMatchingKeys)) throw translate(error);
      // No kid and several candidate keys: try each (the iteration imports them, and may throw too).
      try {
        for await (const key of error) {
          try {
            return await compactVerify(jwt, key, options);
          } catch (inner) {
            if (!(inner instanceof jose.JWSSignatureVerificationFailed)) throw inner;
          }
        }
      } catch (inner) {
        throw translate(inner);
      }
      throw grant('The assertion\'s signature does not verify with any key of the issuer.');
    }
  };
  let result = await attempt(await issuerKeys(services, issuer, false));
  // An unknown kid may be a key the partner has just rotated in: fetch again (rate-limited).
  if (result === 'no-key' && issuer.jwks_uri !== null) result = await attempt(await issuerKeys(services, issuer, true));
  if (result === 'no-key') {
    throw grant(kid === undefined ? `No key of the issuer ${issuer.issuer} can verify the assertion.` : `The issuer ${issuer.issuer} has no key with kid ${kid}.`);
  }
  try {
    const payload = JSON.parse(new TextDecoder().decode(result.payload)) as unknown;
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new Error('not an object');
    return payload as JWTPayload;
  } catch {
    throw grant('The assertion\'s payload is not a JSON object.');
  }
}

/**
 * Every failure of verification is the caller's `invalid_grant` (createToken, launchSession):
 * nothing here touches storage, so an error that is not jose's own comes from importing or
 * using the issuer's stored key (jose throws a TypeError for an RSA key under 2048 bits, one
 * registered before PUT /jwt_issuer measured the modulus). It must never be a 500 on these
 * unauthenticated endpoints.
 */
function translate(error: unknown): OAuthError {
  if (error instanceof jose.JWSSignatureVerificationFailed) return grant('The assertion\'s signature does not verify with the issuer\'s key.');
  if (error instanceof jose.JOSEAlgNotAllowed) return grant('The assertion\'s alg is not accepted.');
  if (error instanceof jose.JOSEError) return grant(`The assertion cannot be verified: ${error.message}.`);
  return grant('The issuer\'s registered key cannot verify the assertion; the partner must register usable keys with PUT /jwt_issuer.');
}

const nonEmptyString = (value: unknown, max = 512): value is string => typeof value === 'string' && value.trim() !== '' && value.length <= max;
/**
 * A NumericDate (RFC 7519 §2) a date can hold: ECMA-262's time values span ±8.64e15 ms around
 * 1970 ("Time Values and Time Range"), so ±8.64e12 seconds. Beyond it no instant can be
 * compared or named in the answer, and the claim is refused like a malformed one (auth_token.yaml).
 */
const maxNumericDate = 8.64e12;
const numericDate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= maxNumericDate;
const numericDateRule = `a NumericDate, seconds since 1970-01-01T00:00:00Z within ±${maxNumericDate}`;

function checkClaims(services: Services, issuer: JwtIssuerRow, claims: JWTPayload): VerifiedAssertion {
  // Real time: the partner signs with its real clock, whatever its sandbox clock says.
  const now = services.realClock.now().getTime() / 1000;
  const expectedAudience = `${services.config.baseUrl}/auth/token`;

  if (claims.iss !== issuer.issuer) throw grant('The iss claim does not match the registered issuer.');
  if (claims.aud === undefined) throw grant(`The aud claim is required: ${expectedAudience}.`);
  // The token endpoint and nothing else: a string, or an array holding only it. A JWT that
  // names another audience too was made for that audience as well, which could replay it here.
  const audiences: unknown[] = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (audiences.length === 0 || audiences.some((audience) => audience !== expectedAudience)) {
    throw grant(`The aud claim must be ${expectedAudience} alone (a string, or an array holding only it).`);
  }

  if (!numericDate(claims.exp)) throw grant(`The exp claim is required (${numericDateRule}).`);
  if (!numericDate(claims.iat)) throw grant(`The iat claim is required (${numericDateRule}).`);
  if (claims.exp <= now - clockLeewaySeconds) throw grant(`The assertion expired at ${iso(claims.exp)}.`);
  if (claims.iat > now + clockLeewaySeconds) throw grant(`The assertion is not yet valid: it was issued at ${iso(claims.iat)}, in the future.`);
  if (claims.nbf !== undefined) {
    if (!numericDate(claims.nbf)) throw grant(`The nbf claim must be ${numericDateRule}.`);
    if (claims.nbf > now + clockLeewaySeconds) throw grant(`The assertion is not yet valid: not before ${iso(claims.nbf)}.`);
  }
  if (claims.exp - claims.iat > maxAssertionLifetimeSeconds) {
    throw grant(`The assertion lives ${claims.exp - claims.iat} s (exp - iat); at most ${maxAssertionLifetimeSeconds} s is accepted.`);
  }

  const { jti, nonce } = claims as { jti?: unknown; nonce?: unknown };
  if (jti !== undefined && !nonEmptyString(jti, 255)) throw grant('The jti claim must be a non-empty string of at most 255 characters.');
  if (nonce !== undefined && !nonEmptyString(nonce, 255)) throw grant('The nonce claim must be a non-empty string of at most 255 characters.');
  if (jti === undefined && nonce === undefined) throw grant('A jti or nonce claim is required, unique per assertion.');
  const replayKeys = [...(jti !== undefined ? [`jti:${jti as string}`] : []), ...(nonce !== undefined ? [`nonce:${nonce as string}`] : [])];

  if (!nonEmptyString(claims.sub, 255)) throw grant('The sub claim is required: the id of the person signing in.');
  const { email, name, picture } = claims as { email?: unknown; name?: unknown; picture?: unknown };
  if (!nonEmptyString(email, 320) || !email.includes('@')) throw grant('The email claim is required: the person\'s email address.');
  if (!nonEmptyString(name, 200)) throw grant('The name claim is required: the person\'s name.');
  if (picture !== undefined && (!nonEmptyString(picture, 2048) || !/^https?:\/\//.test(picture))) throw grant('The picture claim must be an http(s) URL.');

  const scopes = parseScope(claims.scope);
  return {
    issuer,
    subject: claims.sub,
    email: email.trim(),
    name: name.trim(),
    picture: (picture as string | undefined) ?? null,
    scopes,
    replayKeys,
    rememberUntil: new Date((claims.exp + clockLeewaySeconds) * 1000),
  };
}
