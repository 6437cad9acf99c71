/**
 * The sandbox's first key. With RAMP_SEED_API_KEY, that business organization (KYB
 * approved) and that key are made to exist, so a partner's CI can use a fixed key. Without
 * it, an empty sandbox database gets a fresh organization and key, printed once.
 */
import type { Config } from '../../config.ts';
import type { Storage } from '../../storage/database.ts';
import { apiKeysRepository } from './repository.ts';
import { organizationsRepository } from '../organizations/repository.ts';
import { insertPartner } from '../organizations/useCases.ts';
import { randomUUID } from 'node:crypto';
import { ConfigError } from '../../config.ts';
import { displayPrefix, hashApiKey, keyEnvFor, keyLookup, parseApiKey } from './rules.ts';
import { mintApiKey } from './useCases.ts';

export interface BootstrapResult {
  /** The full key when this start created it (print it once), else undefined. */
  createdKey?: string;
  organizationId?: string;
}

export async function bootstrapSeedKey(storage: Storage, config: Config, now: Date): Promise<BootstrapResult> {
  const at = now.toISOString();
  if (config.seedApiKey) {
    const key = parseApiKey(config.seedApiKey);
    if (!key) throw new ConfigError('RAMP_SEED_API_KEY is not a key of the form api_{sand|prod}:{key_id}:{org_id}');
    if (key.env !== keyEnvFor(config.env)) throw new ConfigError(`RAMP_SEED_API_KEY is a ${key.env} key but RAMP_ENV is ${config.env}`);
    return storage.db.transaction().execute(async (tx) => {
      const organizations = organizationsRepository(tx);
      let organization = await organizations.find(key.organizationId);
      if (!organization) {
        organization = await insertPartner(tx, { id: key.organizationId, at });
      } else if (organization.type !== 'business') {
        throw new ConfigError(`RAMP_SEED_API_KEY names organization ${organization.id}, which is not a business`);
      } else if (organization.kyb_status !== 'approved') {
        await organizations.update(organization.id, { kyb_status: 'approved', kyb_approved_at: at, updated_at: at });
      }
      const keys = apiKeysRepository(tx);
      const existing = await keys.findByLookup(keyLookup(key.keyId));
      if (existing && existing.organization_id !== organization.id) throw new ConfigError('RAMP_SEED_API_KEY reuses a key id of another organization');
      const hash = hashApiKey(key.raw, organization.key_salt);
      if (!existing) {
        await keys.insert({ id: randomUUID(), lookup: keyLookup(key.keyId), organization_id: organization.id, env: key.env, hash, prefix: displayPrefix(key.raw), created_at: at, revoked_at: null, last_used_at: null });
      } else if (existing.revoked_at !== null || existing.hash !== hash) {
        await keys.restore(existing.id, hash);
      }
      return { organizationId: organization.id };
    });
  }
  if (config.env !== 'sandbox') return {};
  return storage.db.transaction().execute(async (tx) => {
    if (await organizationsRepository(tx).any()) return {};
    const organization = await insertPartner(tx, { at });
    const { key } = await mintApiKey(tx, organization, 'sand', now);
    return { createdKey: key, organizationId: organization.id };
  });
}
