/**
 * Child (customer) organizations: created under the key's organization, renamed by it.
 * Only the key's own organization and its direct children are reachable (v2.yaml, Organizations).
 */
import { Problem } from '../../shared/problems.ts';
import type { Caller } from './scope.ts';
import type { Db, Tx } from '../../storage/database.ts';
import { isoNow, type Services } from '../../services.ts';
import { organizationsRepository, type OrganizationRow } from './repository.ts';
import { newOrganizationId, newSalt } from '../apiKeys/rules.ts';
import { actFor } from './scope.ts';

/**
 * Names lose their leading and trailing ASCII whitespace, the set the contract's pattern
 * names (V1CreateOrganizationRequest.displayName), not JavaScript's wider `trim()`: a name the
 * contract accepts is one the service accepts. Nothing left is no name (the pattern refuses it
 * first unless request validation is off).
 */
const asciiWhitespaceAround = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;
function displayNameOf(value: string): string {
  const name = value.replace(asciiWhitespaceAround, '');
  if (!name) throw new Problem('invalid-request', 'displayName is required');
  return name;
}

/**
 * A new partner: a top-level business, KYB approved, as the sandbox's seed key makes it and
 * `POST /sandbox/partners` makes one per test run. `at` is its creation and approval time.
 */
export function insertPartner(tx: Db | Tx, o: { id?: string; displayName?: string; at: string }): Promise<OrganizationRow> {
  return organizationsRepository(tx).insert({
    id: o.id ?? newOrganizationId(), parentId: null, type: 'business', displayName: o.displayName ?? 'Sandbox partner',
    keySalt: newSalt(), kybStatus: 'approved', kybApprovedAt: o.at, kycStatus: 'approved', now: o.at,
  });
}

/**
 * A new child of the caller's organization, with the id asked for or a fresh one. An id
 * already used is a conflict: by any organization, which includes the customer
 * organization that signing a person in with a UUID `sub` creates (050-auth).
 */
export async function createChildOrganization(
  services: Pick<Services, 'storage' | 'clock'>,
  caller: Caller,
  request: { organizationId?: string; displayName: string; type: OrganizationRow['type'] },
): Promise<OrganizationRow> {
  const displayName = displayNameOf(request.displayName);
  const created = await organizationsRepository(services.storage.db).insertIfAbsent({
    id: (request.organizationId ?? newOrganizationId()).toLowerCase(),
    parentId: caller.organization.id,
    type: request.type,
    displayName,
    keySalt: newSalt(),
    now: isoNow(services),
  });
  if (!created) throw new Problem('conflict', 'Organization id is already in use');
  return created;
}

/** Renames the caller's organization or a direct child; anything else is not found. */
export async function renameOrganization(services: Pick<Services, 'storage' | 'clock'>, caller: Caller, organizationId: string, displayName: string): Promise<OrganizationRow> {
  const name = displayNameOf(displayName);
  const organization = await actFor(services, caller, organizationId).catch((error: unknown) => {
    // v1 shows the message alone, without the id.
    throw error instanceof Problem && error.slug === 'not-found' ? new Problem('not-found', 'Organization not found') : error;
  });
  const at = isoNow(services);
  await organizationsRepository(services.storage.db).rename(organization.id, name, at);
  return { ...organization, display_name: name, updated_at: at };
}

/** A page of the caller's customer organizations (`listOrganizations`), newest first. */
export function childOrganizationsPage(services: Pick<Services, 'storage'>, caller: Caller, page: { size: number; number: number }) {
  return organizationsRepository(services.storage.db).childrenPage(caller.organization.id, page, undefined, 'desc');
}

/** An organization by id, whoever asks (the app pages name the partner that launched them). */
export function findOrganization(services: Pick<Services, 'storage'>, id: string): Promise<OrganizationRow | undefined> {
  return organizationsRepository(services.storage.db).find(id);
}
