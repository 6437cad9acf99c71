/** Rules about organizations that several flows share. */
import type { OrganizationRow } from './repository.ts';

/**
 * May this organization transact (quote, order)? A person once KYC is approved, a
 * business once KYB is approved (seed part 3, "Transacting is allowed only when
 * kyc.approved is true").
 */
export const isApproved = (organization: Pick<OrganizationRow, 'type' | 'kyc_status' | 'kyb_status'>) =>
  organization.type === 'personal' ? organization.kyc_status === 'approved' : organization.kyb_status === 'approved';
