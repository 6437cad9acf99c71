/** Organizations exactly as their GETs return them. */
import type { components } from '../../../generated/types/ramp.ts';
import type { OrganizationRow } from './repository.ts';

export function presentOrganization(row: OrganizationRow): components['schemas']['Organization'] {
  return {
    organizationId: row.id,
    displayName: row.display_name,
    type: row.type,
    parentOrganizationId: row.parent_id,
    createdAt: row.created_at,
  };
}
