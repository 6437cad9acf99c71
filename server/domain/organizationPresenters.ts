/**
 * Organizations, customers and API keys exactly as their GETs return them (and, for the v1
 * customer, as `customer_updated` carries it): one presenter per object.
 */
import type { components } from '../../generated/types/ramp.ts';
import type { ApiKeyRow } from '../storage/apiKeys.ts';
import type { OrganizationRow } from '../storage/organizations.ts';
import { v1CustomerStatus } from './verification.ts';

type Schemas = components['schemas'];

export function presentOrganization(row: OrganizationRow): Schemas['Organization'] {
  return {
    organizationId: row.id,
    displayName: row.display_name,
    type: row.type,
    parentOrganizationId: row.parent_id,
    createdAt: row.created_at,
  };
}

/** A partner's child organization seen as a v1 customer (`customerId` is its id). */
export function presentV1Customer(row: OrganizationRow): Schemas['V1Customer'] {
  return {
    customerId: row.id,
    displayName: row.display_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    status: v1CustomerStatus(row),
  };
}

/** A key as listed: its first 16 characters only. */
export function presentApiKey(row: ApiKeyRow): Schemas['ApiKey'] {
  return {
    id: row.id,
    organizationId: row.organization_id,
    keyPrefix: row.prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}
