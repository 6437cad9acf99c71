/** Rules about organizations that several flows share. */
import type { OrganizationRow } from './repository.ts';

/**
 * May this organization transact (quote, order)? A person once KYC is approved, a
 * business once KYB is approved (else 403 `organization-not-approved`, the
 * contract's OrganizationNotApprovedProblem).
 */
export const isApproved = (organization: Pick<OrganizationRow, 'type' | 'kyc_status' | 'kyb_status'>) =>
  organization.type === 'personal' ? organization.kyc_status === 'approved' : organization.kyb_status === 'approved';
