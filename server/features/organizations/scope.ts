/** Which organizations a key may act for: its own and its direct children (v2.yaml, Organizations). */
import { Problem } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import { organizationsRepository, type OrganizationRow } from './repository.ts';
import type { ClockState } from '../clock/repository.ts';

/** Who called: the organization of the API key, and the key's id. */
export interface Caller {
  organization: OrganizationRow;
  keyId: string;
  /** Its partner's sandbox clock as the request began (features/clock); absent: on real time. */
  sandboxClock?: ClockState;
}

/**
 * The organization a request acts for: the caller's own or a direct child. It takes the
 * services as use cases do, so a handler resolves it without holding the database.
 */
export async function actFor(services: Pick<Services, 'storage'>, caller: Caller, organizationId: string): Promise<OrganizationRow> {
  const id = organizationId.toLowerCase();
  if (id === caller.organization.id) return caller.organization;
  const child = await organizationsRepository(services.storage.db).find(id);
  // Grandchildren and strangers alike are "not found", so existence does not leak.
  if (!child || child.parent_id !== caller.organization.id) {
    throw new Problem('not-found', `Organization ${organizationId} was not found.`);
  }
  return child;
}
