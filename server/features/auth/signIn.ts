/**
 * Signing a person in: a verified partner JWT or a refresh token becomes a sign-in (grant)
 * with tokens (access + refresh, `POST /auth/token`) or a browser session
 * (`/auth/launch`). Tokens are random strings; only their SHA-256 is stored. Each refresh
 * token works once; sending a used one again revokes its whole sign-in.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { OAuthError } from '../../shared/problems.ts';
import { canonicalUuid } from '../../shared/uuid.ts';
import type { Services } from '../../services.ts';
import { authRepository, type AuthGrantRow, type AuthTokenRow } from './repository.ts';
import type { Tx } from '../../storage/database.ts';
import { organizationsRepository } from '../organizations/repository.ts';
import { newSalt } from '../apiKeys/rules.ts';
import { clocksRepository, timeOf } from '../clock/repository.ts';
import { verifyAssertion, type VerifiedAssertion } from './assertion.ts';
import { accessTokenSeconds, refreshTokenSeconds, sessionSeconds } from './rules.ts';

export interface TokenSet {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export interface Session {
  token: string;
  grant: AuthGrantRow;
}

/** What a successful credential yields, before it is turned into tokens or a session. */
export type Issue = (tx: Tx, grant: AuthGrantRow, now: Date) => Promise<void>;

const grantError = (description: string) => new OAuthError('invalid_grant', description);

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;
const plus = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
};

/** Runs a sign-in transaction; once more if a concurrent first sign-in created the same customer. */
async function inTransaction<T>(services: Services, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await services.storage.db.transaction().execute(work);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return services.storage.db.transaction().execute(work);
  }
}

async function tokenRow(tx: Tx, grant: AuthGrantRow, kind: AuthTokenRow['kind'], prefix: string, now: Date, seconds: number, session?: SessionOptions) {
  const token = newToken(prefix);
  await authRepository(tx).insertToken({
    hash: hashToken(token),
    kind,
    grant_id: grant.id,
    return_url: session?.returnUrl ?? null,
    frame_ancestor: session?.frameAncestor ?? null,
    created_at: now.toISOString(),
    expires_at: plus(now, seconds),
    used_at: null,
  });
  return token;
}

async function issueTokens(tx: Tx, grant: AuthGrantRow, now: Date): Promise<TokenSet> {
  return {
    access_token: await tokenRow(tx, grant, 'access', 'at_', now, accessTokenSeconds),
    token_type: 'Bearer',
    expires_in: accessTokenSeconds,
    refresh_token: await tokenRow(tx, grant, 'refresh', 'rt_', now, refreshTokenSeconds),
    scope: grant.scope,
  };
}

/**
 * A new sign-in from a verified JWT, inside the transaction: remembers its jti/nonce (a
 * replay is refused here, also across processes), resolves the person (a UUID sub is the
 * customer organization, created under the partner on first sign-in), records the grant.
 * `now` is real time (the sign-in's own records); the customer is created at the partner's
 * sandbox clock, as every organization the partner sees (Organization.createdAt, its place
 * in GET /organizations and the v1 customer lists' date filters).
 */
async function grantFromAssertion(tx: Tx, verified: VerifiedAssertion, now: Date): Promise<AuthGrantRow> {
  const auth = authRepository(tx);
  const issuer = verified.issuer;
  for (const key of verified.replayKeys) {
    if (!(await auth.rememberAssertion(issuer.issuer, key, verified.rememberUntil.toISOString()))) {
      throw grantError(`The assertion's ${key.slice(0, key.indexOf(':'))} has been used before; sign a new JWT for each sign-in.`);
    }
  }
  const partnerId = issuer.organization_id;
  // A UUID in either case is the customer of its lower-case spelling (shared/uuid.ts), as an organization id is.
  const customerId = canonicalUuid(verified.subject) ?? null;
  if (customerId !== null) {
    const organizations = organizationsRepository(tx);
    const existing = await organizations.find(customerId);
    if (existing?.type === 'business') throw grantError('The sub claim names a business organization; sign in a person.');
    if (existing && existing.parent_id !== partnerId) throw grantError('The sub claim names a customer of another organization.');
    if (!existing) {
      const partnerClock = await clocksRepository(tx).ofOrganization(partnerId);
      await organizations.insert({
        id: customerId,
        parentId: partnerId,
        type: 'personal',
        displayName: verified.name,
        keySalt: newSalt(),
        now: timeOf(partnerClock, now).toISOString(),
      });
    }
  }
  const grant: AuthGrantRow = {
    id: randomUUID(),
    partner_id: partnerId,
    issuer: issuer.issuer,
    subject: verified.subject,
    customer_id: customerId,
    email: verified.email,
    name: verified.name,
    picture: verified.picture,
    scope: verified.scopes.join(' '),
    created_at: now.toISOString(),
    revoked_at: null,
  };
  await auth.insertGrant(grant);
  return grant;
}

/** `check` runs on the grant before anything is written for it (a launch checks its target's scope). */
export type GrantCheck = (grant: Pick<AuthGrantRow, 'scope'>) => void;

/** What a launch gives its browser session besides the sign-in. */
export interface SessionOptions {
  check: GrantCheck;
  returnUrl: string | null;
  /** The launch's `origin`: the one origin that may frame the session's app pages (null: none). */
  frameAncestor: string | null;
}

// Tokens, sessions and their expiry follow real time, whatever the partner's sandbox clock
// says (README "Sandbox clock"): the partner signs its JWTs with its real clock.

/** The JWT bearer grant: tokens (`POST /auth/token`) or a session (`/auth/launch`). */
export async function signInWithAssertion(services: Services, jwt: string): Promise<TokenSet>;
export async function signInWithAssertion(services: Services, jwt: string, session: SessionOptions): Promise<Session>;
export async function signInWithAssertion(services: Services, jwt: string, session?: SessionOptions): Promise<TokenSet | Session> {
  const verified = await verifyAssertion(services, jwt);
  session?.check({ scope: verified.scopes.join(' ') });
  const now = services.realClock.now();
  return inTransaction(services, async (tx) => {
    const grant = await grantFromAssertion(tx, verified, now);
    if (!session) return issueTokens(tx, grant, now);
    return { token: await tokenRow(tx, grant, 'session', 's_', now, sessionSeconds, session), grant };
  });
}

/** The refresh token grant: consumes the token, then tokens or a session for the same sign-in. */
export async function signInWithRefreshToken(services: Services, refreshToken: string): Promise<TokenSet>;
export async function signInWithRefreshToken(services: Services, refreshToken: string, session: SessionOptions): Promise<Session>;
export async function signInWithRefreshToken(services: Services, refreshToken: string, session?: SessionOptions): Promise<TokenSet | Session> {
  const now = services.realClock.now();
  const hash = hashToken(refreshToken);
  // A reuse must revoke the sign-in *and* be refused: the revocation commits, then we throw.
  type Outcome = { reused: true } | { issued: TokenSet | Session };
  const outcome = await inTransaction(services, async (tx): Promise<Outcome> => {
    const auth = authRepository(tx, services.storage.engine);
    const row = await auth.findRefreshForUpdate(hash);
    if (!row) throw grantError('The refresh token is unknown or has expired.');
    const grant = await auth.findGrant(row.grant_id);
    if (!grant || grant.revoked_at !== null) throw grantError('The refresh token has been revoked; sign in again with a new JWT.');
    const reused = async (): Promise<Outcome> => {
      await auth.revokeGrant(grant.id, now.toISOString());
      return { reused: true };
    };
    if (row.used_at !== null) return reused();
    if (row.expires_at <= now.toISOString()) throw grantError('The refresh token has expired; sign in again with a new JWT.');
    session?.check(grant);
    // Conditional: of two requests racing with one token, exactly one consumes it.
    if (!(await auth.consumeToken(hash, now.toISOString()))) return reused();
    if (!session) return { issued: await issueTokens(tx, grant, now) };
    return { issued: { token: await tokenRow(tx, grant, 'session', 's_', now, sessionSeconds, session), grant } };
  });
  if ('reused' in outcome) {
    throw grantError('The refresh token has already been used. Every token of this sign-in is now revoked; sign in again with a new JWT.');
  }
  return outcome.issued;
}

export interface SignedIn {
  grant: AuthGrantRow;
  returnUrl: string | null;
  frameAncestor: string | null;
}

/** The sign-in behind a session cookie, or undefined when there is none or it ended. */
export async function sessionOf(services: Services, token: string | undefined): Promise<SignedIn | undefined> {
  if (!token) return undefined;
  const auth = authRepository(services.storage.db);
  const row = await auth.findToken(hashToken(token), 'session');
  if (!row || row.expires_at <= services.realClock.now().toISOString()) return undefined;
  const grant = await auth.findGrant(row.grant_id);
  if (!grant || grant.revoked_at !== null) return undefined;
  return { grant, returnUrl: row.return_url, frameAncestor: row.frame_ancestor };
}
