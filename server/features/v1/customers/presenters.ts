/** A partner's child organization seen as a v1 customer, as `v1GetCustomer` returns it and `customer_updated` carries it. */
import type { components } from '../../../../generated/types/ramp.ts';
import type { OrganizationRow } from '../../organizations/repository.ts';
import { v1CustomerStatus } from '../../verification/machine.ts';

/** `customerId` is the child organization's id. */
export function presentV1Customer(row: OrganizationRow): components['schemas']['V1Customer'] {
  return {
    customerId: row.id,
    displayName: row.display_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    status: v1CustomerStatus(row),
  };
}
