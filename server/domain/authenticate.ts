/** Who is calling: the API key in `Authorization` checked against its stored hash (seed part 5). */
import type { InferResult } from 'kysely';
import type { Config } from '../config.ts';
import { Problem } from '../problems.ts';
import type { Db } from '../storage/database.ts';
import { hashMatches, keyEnvFor, keyLookup, parseApiKey } from './apiKeys.ts';
import type { Caller } from '../handlers/types.ts';
import { timeOf } from '../features/clock/repository.ts';

const unauthorized = (detail: string) => new Problem('unauthorized', detail);
const lastUsedResolutionMs = 60_000;

/**
 * The key, its organization and its partner's sandbox clock (features/clock) in one indexed
 * query, by the key's lookup hash (its one parameter).
 */
const keyQuery = (db: Db, lookup: string) =>
  db
    .selectFrom('api_keys')
    .innerJoin('organizations', 'organizations.id', 'api_keys.organization_id')
    .leftJoin('sandbox_clocks', 'sandbox_clocks.partner_id', 'organizations.top_id')
    .where('api_keys.lookup', '=', lookup)
    .selectAll('organizations')
    .select(['api_keys.id as key_id', 'api_keys.hash as key_hash', 'api_keys.revoked_at as key_revoked_at', 'api_keys.last_used_at as key_last_used_at'])
    .select(['sandbox_clocks.frozen_at as clock_frozen_at', 'sandbox_clocks.offset_ms as clock_offset_ms']);

type KeyQuery = ReturnType<typeof keyQuery>;
type CompiledKeyQuery = ReturnType<KeyQuery['compile']>;

/**
 * Every authenticated request runs the key query, and building and compiling it cost more
 * than running it: it is compiled once per database (each engine has its own SQL) and run
 * with the request's parameter. A cache of derived SQL text, not state.
 */
const compiledKeyQueries = new WeakMap<Db, CompiledKeyQuery>();

async function findKey(db: Db, lookup: string) {
  let compiled = compiledKeyQueries.get(db);
  if (!compiled) compiledKeyQueries.set(db, (compiled = keyQuery(db, '').compile()));
  const { rows } = await db.executeQuery<InferResult<KeyQuery>[number]>({ ...compiled, parameters: [lookup] });
  return rows[0];
}

/** `now` is real time; the caller's sandbox clock is read here, with its key. */
export async function authenticate(db: Db, config: Config, header: string | undefined, now: Date): Promise<Caller> {
  if (!header) throw unauthorized('The Authorization header is missing; send the raw API key.');
  if (!/^[\x21-\x7e]+$/.test(header)) {
    throw unauthorized(/^Bearer /i.test(header) ? 'Send the raw API key without a Bearer prefix.' : 'The API key must be printable ASCII.');
  }
  const key = parseApiKey(header);
  if (!key) throw unauthorized('Invalid API key format');
  if (key.env !== keyEnvFor(config.env)) {
    throw unauthorized(`This is a ${key.env === 'sand' ? 'sandbox' : 'production'} key; it works only against the ${key.env === 'sand' ? 'sandbox' : 'production'} address.`);
  }
  const found = await findKey(db, keyLookup(key.keyId));
  if (!found) throw unauthorized('Invalid API key.');
  const { key_id: keyId, key_hash: hash, key_revoked_at: revokedAt, key_last_used_at: lastUsedAt, clock_frozen_at: frozenAt, clock_offset_ms: offsetMs, ...organization } = found;
  if (organization.id !== key.organizationId || revokedAt !== null || !hashMatches(key.raw, organization.key_salt, hash)) {
    throw unauthorized('Invalid API key.');
  }
  const sandboxClock = frozenAt !== null || offsetMs !== null ? { frozenAt, offsetMs: Number(offsetMs ?? 0) } : undefined;
  // ApiKey.lastUsedAt is shown to the partner (listApiKeys), so it is on its sandbox clock
  // like every other time it sees; a frozen clock keeps it still.
  const used = sandboxClock ? timeOf(sandboxClock, now) : now;
  if (!lastUsedAt || used.getTime() - Date.parse(lastUsedAt) > lastUsedResolutionMs) {
    await db.updateTable('api_keys').set({ last_used_at: used.toISOString() }).where('id', '=', keyId).execute();
  }
  return { organization, keyId, ...(sandboxClock ? { sandboxClock } : {}) };
}
