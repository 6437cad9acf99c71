/**
 * JWT issuers (`PUT /jwt_issuer`, designed): the partner's `iss` and the public keys that
 * verify its JWTs, inline or fetched from a `jwksUri`.
 *
 * A fetched JWKS is cached in the database, not in the process: the 30-second refetch limit
 * must hold across every server process (a per-process cache would let N processes fetch N
 * times), and a restart should not have to fetch before the first sign-in.
 */
import type { components } from '../../../generated/types/ramp.ts';
import { publicOnlyRule, urlProblem } from '../../shared/outbound.ts';
import { Problem, validationError, type FieldError } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import { jwtIssuersRepository, type JwtIssuerRow } from './repository.ts';
import type { OrganizationRow } from '../organizations/repository.ts';
import { fetchJwks, JwksFetchError, jwksErrors, type Jwks } from './jwks.ts';
import { jwksCacheSeconds, jwksRefetchSeconds } from './rules.ts';

export type JwtIssuer = components['schemas']['JwtIssuer'];
export type JwtIssuerRequest = components['schemas']['JwtIssuerRequest'];

/** The issuer as `GET /jwt_issuer` and `PUT /jwt_issuer` show it. */
export function presentJwtIssuer(row: JwtIssuerRow): JwtIssuer {
  return {
    organizationId: row.organization_id,
    issuer: row.issuer,
    ...(row.jwks !== null ? { jwks: JSON.parse(row.jwks) as JwtIssuer['jwks'] } : {}),
    ...(row.jwks_uri !== null ? { jwksUri: row.jwks_uri } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function getJwtIssuer(services: Services, organization: OrganizationRow): Promise<JwtIssuer> {
  const row = await jwtIssuersRepository(services.storage.db).findByOrganization(organization.id);
  if (!row) throw new Problem('not-found', `No JWT issuer is registered for organization ${organization.id}.`);
  return presentJwtIssuer(row);
}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
};

export async function setJwtIssuer(services: Services, organization: OrganizationRow, body: JwtIssuerRequest): Promise<JwtIssuer> {
  const { config, clock, storage } = services;
  const errors: FieldError[] = [];
  if (body.jwks !== undefined) errors.push(...(await jwksErrors(body.jwks, '/jwks')));
  // The rules of webhook URLs: https and a public host in production, anything in the sandbox
  // (a public host in a shared one).
  const production = config.env === 'production';
  const uriProblem = body.jwksUri !== undefined ? urlProblem(body.jwksUri, { httpsOnly: production, ...publicOnlyRule(config) }) : undefined;
  if (uriProblem) errors.push({ pointer: '/jwksUri', detail: uriProblem });
  if (errors.length > 0) throw validationError(errors);
  // A jwksUri is fetched now, so a typo fails here rather than at the first sign-in.
  let fetched: Jwks | undefined;
  if (body.jwksUri !== undefined) {
    try {
      fetched = await fetchJwks(body.jwksUri, { publicOnly: config.outboundPublicOnly });
    } catch (error) {
      if (!(error instanceof JwksFetchError)) throw error;
      services.logger.info({ jwksUri: body.jwksUri, reason: error.reason, detail: error.internal }, 'JWKS fetch at registration failed');
      throw validationError([{ pointer: '/jwksUri', detail: error.message }]);
    }
  }
  const now = clock.now().toISOString();
  // The JWKS cache ages on real time (issuerKeys, at sign-in); createdAt/updatedAt on the partner's clock.
  const fetchedAt = services.realClock.now().toISOString();
  const taken = () => new Problem('conflict', `The issuer ${body.issuer} is registered by another organization.`);
  try {
    return await storage.db.transaction().execute(async (tx) => {
      const issuers = jwtIssuersRepository(tx);
      const holder = await issuers.findByIssuer(body.issuer);
      if (holder && holder.organization_id !== organization.id) throw taken();
      const current = await issuers.findByOrganization(organization.id);
      const row: JwtIssuerRow = {
        organization_id: organization.id,
        issuer: body.issuer,
        jwks: body.jwks !== undefined ? JSON.stringify(body.jwks) : null,
        jwks_uri: body.jwksUri ?? null,
        fetched_jwks: fetched ? JSON.stringify(fetched) : null,
        fetched_at: fetched ? fetchedAt : null,
        fetch_attempted_at: fetched ? fetchedAt : null,
        created_at: current?.created_at ?? now,
        updated_at: now,
      };
      await issuers.upsert(row);
      return presentJwtIssuer(row);
    });
  } catch (error) {
    // Two organizations registering one issuer at once: the unique index decides.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/**
 * The keys that verify this issuer's JWTs. Inline keys as registered; fetched keys from the
 * cache while fresh, fetched again when stale or when `refresh` (a `kid` the cache lacks),
 * but at most once per 30 s across processes. A failed fetch keeps the last good keys.
 */
export async function issuerKeys(services: Services, row: JwtIssuerRow, refresh: boolean): Promise<Jwks | undefined> {
  if (row.jwks !== null) return JSON.parse(row.jwks) as Jwks;
  const uri = row.jwks_uri!;
  // The cache ages on real time (the issuer's keys rotate on its real clock).
  const now = services.realClock.now();
  const cached = row.fetched_jwks !== null ? (JSON.parse(row.fetched_jwks) as Jwks) : undefined;
  const fresh = row.fetched_at !== null && now.getTime() - Date.parse(row.fetched_at) < jwksCacheSeconds * 1000;
  if (cached && fresh && !refresh) return cached;
  const issuers = jwtIssuersRepository(services.storage.db);
  if (!(await issuers.claimFetch(row.organization_id, uri, now, jwksRefetchSeconds))) return cached;
  try {
    const jwks = await fetchJwks(uri, { publicOnly: services.config.outboundPublicOnly });
    await issuers.storeFetched(row.organization_id, uri, JSON.stringify(jwks), now.toISOString());
    return jwks;
  } catch (error) {
    if (!(error instanceof JwksFetchError)) throw error;
    services.logger.warn({ issuer: row.issuer, jwksUri: uri, reason: error.reason, detail: error.internal }, 'JWKS fetch failed; keeping the cached keys');
    return cached;
  }
}
