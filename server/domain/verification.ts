/**
 * One verification per organization, seen by both generations: v2 speaks its KYC/KYB
 * statuses (notStarted, inProgress, submitted, approved, denied); v1 projects them onto
 * its own vocabulary. The organization row holds the v2 status.
 */
export type VerificationStatus = 'notStarted' | 'inProgress' | 'submitted' | 'approved' | 'denied';

/** v1 customer status (seed part 3, "Other state sets"). */
export function v1CustomerStatus(kycStatus: string): 'customer_pending' | 'customer_verified' | 'customer_failed' {
  if (kycStatus === 'approved') return 'customer_verified';
  if (kycStatus === 'denied') return 'customer_failed';
  return 'customer_pending';
}
