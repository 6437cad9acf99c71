/** Who is calling: the API key in `Authorization` checked against its stored hash (v2.yaml, Authentication: else 401 `unauthorized`). */
import type { Config } from '../../config.ts';
import { Problem } from '../../shared/problems.ts';
import type { Db } from '../../storage/database.ts';
import { apiKeysRepository } from './repository.ts';
import { hashMatches, keyEnvFor, keyLookup, parseApiKey } from './rules.ts';
import type { Caller } from '../organizations/scope.ts';
import { timeOf } from '../clock/repository.ts';
import { sandboxPartnersRepository } from '../sandboxPartners/repository.ts';

const unauthorized = (detail: string) => new Problem('unauthorized', detail);
const lastUsedResolutionMs = 60_000;

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
  const keys = apiKeysRepository(db);
  const found = await keys.findWithOrganization(keyLookup(key.keyId));
  if (!found) throw unauthorized('Invalid API key.');
  const { key_id: keyId, key_hash: hash, key_revoked_at: revokedAt, key_last_used_at: lastUsedAt, clock_frozen_at: frozenAt, clock_offset_ms: offsetMs, made_last_request_at: madeLastRequestAt, ...organization } = found;
  if (organization.id !== key.organizationId || revokedAt !== null || !hashMatches(key.raw, organization.key_salt, hash)) {
    throw unauthorized('Invalid API key.');
  }
  const sandboxClock = frozenAt !== null || offsetMs !== null ? { frozenAt, offsetMs: Number(offsetMs ?? 0) } : undefined;
  // ApiKey.lastUsedAt is shown to the partner (listApiKeys), so it is on its sandbox clock
  // like every other time it sees; a frozen clock keeps it still.
  const used = sandboxClock ? timeOf(sandboxClock, now) : now;
  if (!lastUsedAt || used.getTime() - Date.parse(lastUsedAt) > lastUsedResolutionMs) {
    await keys.touch(keyId, used.toISOString());
  }
  // A partner made by POST /sandbox/partners expires after a day unused, counted in real time.
  if (madeLastRequestAt && now.getTime() - Date.parse(madeLastRequestAt) > lastUsedResolutionMs) {
    await sandboxPartnersRepository(db).touch(organization.top_id ?? organization.id, now.toISOString());
  }
  return { organization, keyId, ...(sandboxClock ? { sandboxClock } : {}) };
}
