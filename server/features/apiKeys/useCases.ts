/**
 * Issuing and revoking API keys (createApiKey, deleteApiKey; v2.yaml, Authentication): only a business organization
 * whose KYB is approved holds keys, at most 5 active at a time, the whole key is returned
 * once and only its hash is kept, a revoked key stops working with its next request.
 *
 * A key creates keys for its own organization only, never for a customer organization
 * (createApiKey in the contract). A customer's key acts as the customer, whose own children
 * are its direct children: a partner that could mint one would reach its grandchildren,
 * which the service keeps out of its reach (v2.yaml, Organizations: only direct children are
 * addressable through the partner's key). It would gain nothing else, since its own key
 * already acts for the customer. Listing and revoking a direct customer's keys stay
 * allowed: they reach nothing further, and a partner can end a leaked one.
 */
import { randomUUID } from 'node:crypto';
import { Problem } from '../../shared/problems.ts';
import type { Tx } from '../../storage/database.ts';
import { isoNow, type Services } from '../../services.ts';
import { organizationsRepository, type OrganizationRow } from '../organizations/repository.ts';
import { apiKeysRepository, type ApiKeyRow } from './repository.ts';
import { displayPrefix, formatApiKey, hashApiKey, keyEnvFor, keyLookup, maxActiveKeys, newKeyId, type KeyEnv } from './rules.ts';

export interface IssuedKey {
  row: ApiKeyRow;
  /** The whole key: shown in this answer and never again. */
  key: string;
}

/** `forbidden` unless the key creates a key for its own organization. */
export function assertOwnOrganization(callerOrganizationId: string, organizationId: string) {
  if (organizationId !== callerOrganizationId) {
    throw new Problem('forbidden', "API keys are created by the organization that holds them; a partner acts for its customer organizations with its own key.");
  }
}

export async function issueApiKey(services: Pick<Services, 'storage' | 'config' | 'clock'>, organizationId: string): Promise<IssuedKey> {
  const { storage, config } = services;
  return storage.db.transaction().execute(async (tx) => {
    // The organization row is the lock that serializes key creation for it: two concurrent
    // requests cannot both see 4 active keys and both add a fifth (SQLite has one writer).
    const organization = await organizationsRepository(tx, storage.engine).findForUpdate(organizationId);
    if (!organization) throw new Problem('not-found', `Organization ${organizationId} was not found.`);
    if (organization.type !== 'business') throw new Problem('forbidden', 'Only business organizations can hold API keys.');
    if (organization.kyb_status !== 'approved') {
      throw new Problem('forbidden', "API keys can be created once the organization's KYB is approved.");
    }
    const keys = apiKeysRepository(tx);
    if ((await keys.countActive(organization.id)) >= maxActiveKeys) {
      throw new Problem('conflict', `The organization already has ${maxActiveKeys} active API keys; delete one before creating another.`);
    }
    return mintApiKey(tx, organization, keyEnvFor(config.env), services.clock.now());
  });
}

/** Inside the caller's transaction: a new active key of the organization, its hash stored and the whole key returned once. */
export async function mintApiKey(tx: Tx, organization: Pick<OrganizationRow, 'id' | 'key_salt'>, env: KeyEnv, now: Date): Promise<IssuedKey> {
  const keyId = newKeyId();
  const key = formatApiKey(env, keyId, organization.id);
  const row: ApiKeyRow = {
    id: randomUUID(),
    lookup: keyLookup(keyId),
    organization_id: organization.id,
    env,
    hash: hashApiKey(key, organization.key_salt),
    prefix: displayPrefix(key),
    created_at: now.toISOString(),
    revoked_at: null,
    last_used_at: null,
  };
  await apiKeysRepository(tx).insert(row);
  return { row, key };
}

/** Revokes at once, with no grace period; an unknown or already revoked key is `not-found`. */
export async function revokeApiKey(services: Pick<Services, 'storage' | 'clock'>, organizationId: string, id: string): Promise<void> {
  const revoked = await apiKeysRepository(services.storage.db).revoke(organizationId, id.toLowerCase(), isoNow(services));
  if (!revoked) throw new Problem('not-found', `API key ${id} was not found.`);
}

/** A page of the organization's active keys (`listApiKeys`), newest first. */
export function activeKeysPage(services: Pick<Services, 'storage'>, organizationId: string, page: { size: number; number: number }) {
  return apiKeysRepository(services.storage.db).activePage(organizationId, page);
}
