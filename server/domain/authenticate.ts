/** Who is calling: the API key in `Authorization` checked against its stored hash (seed part 5). */
import type { Config } from '../config.ts';
import { Problem } from '../problems.ts';
import type { Db } from '../storage/database.ts';
import { apiKeysRepository } from '../storage/apiKeys.ts';
import { organizationsRepository } from '../storage/organizations.ts';
import { hashMatches, keyEnvFor, parseApiKey } from './apiKeys.ts';
import type { Caller } from '../handlers/types.ts';

const unauthorized = (detail: string) => new Problem('unauthorized', detail);
const lastUsedResolutionMs = 60_000;

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
  const stored = await apiKeysRepository(db).find(key.keyId);
  const organization = stored && stored.organization_id === key.organizationId ? await organizationsRepository(db).find(key.organizationId) : undefined;
  if (!stored || !organization || stored.revoked_at !== null || !hashMatches(key.raw, organization.key_salt, stored.hash)) {
    throw unauthorized('Invalid API key.');
  }
  if (!stored.last_used_at || now.getTime() - Date.parse(stored.last_used_at) > lastUsedResolutionMs) {
    await db.updateTable('api_keys').set({ last_used_at: now.toISOString() }).where('id', '=', stored.id).execute();
  }
  return { organization, keyId: stored.id };
}
