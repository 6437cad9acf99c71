/**
 * The state machine of a verification (v2 KYC of a person, v2 KYB of a business: the same
 * five statuses and the same moves), and its v1 projections. Pure: no storage, no HTTP.
 *
 * The contract gives the statuses (VerificationStatus) and one move (submitted → inProgress when the next stage
 * brings new requirements); the rest is designed:
 *
 * | from \ to  | notStarted | inProgress | submitted | approved | denied |
 * |-|-|-|-|-|-|
 * | notStarted | (stay)     | yes        | yes       | yes      | yes    |
 * | inProgress | no         | (stay)     | yes       | yes      | yes    |
 * | submitted  | no         | yes        | (stay)    | yes      | yes    |
 * | approved   | no         | no         | no        | (stay)   | no     |
 * | denied     | no         | no         | no        | no       | (stay) |
 *
 * A verification never goes back to notStarted, and approved and denied are final decisions.
 * notStarted/inProgress → approved is the sandbox's "Approve" action (simulateKyc,
 * simulateKyb), as a provider reusing an earlier verification would. A stay is not a
 * move: it changes no status and emits no status event.
 */
import type { components } from '../../../generated/types/ramp.ts';
import { Problem } from '../../shared/problems.ts';
import { everyValueOf } from '../../shared/contractEnums.ts';
import { defineMachine } from '../../shared/machine.ts';
import type { OrganizationRow } from '../organizations/repository.ts';
import type { VerificationRow } from './repository.ts';

type Schemas = components['schemas'];

export type VerificationStatus = Schemas['VerificationStatus'];
export type V1CustomerStatus = Schemas['V1CustomerStatus'];
export type V1KybStatus = Schemas['V1KybStatus'];
export type V1KycStatus = Schemas['V1KycStatus'];
export type VerificationKind = 'kyc' | 'kyb';

export const verificationStatuses = everyValueOf<VerificationStatus>()(['notStarted', 'inProgress', 'submitted', 'approved', 'denied']);

// ---- state ------------------------------------------------------------------------------

/**
 * v1 customer status (the contract's V1CustomerStatus): verified once approved, failed
 * once denied for good, pending while the verification can still be completed (a review
 * that asks for more keeps the customer pending). Pass the organization row: a person
 * follows its KYC, a business its KYB. A bare status is read as a KYC status.
 */
export function v1CustomerStatus(
  subject: VerificationStatus | Pick<OrganizationRow, 'type' | 'kyc_status' | 'kyb_status'>,
): V1CustomerStatus {
  const status = typeof subject === 'string' ? subject : subject.type === 'business' ? subject.kyb_status : subject.kyc_status;
  if (status === 'approved') return 'customer_verified';
  if (status === 'denied') return 'customer_failed';
  return 'customer_pending';
}

export interface VerificationState {
  organization: OrganizationRow;
  record: VerificationRow | undefined;
}

/** A person is verified by KYC, a business by KYB. */
export const verificationKindOf = (organization: Pick<OrganizationRow, 'type'>): VerificationKind => (organization.type === 'business' ? 'kyb' : 'kyc');

export const statusOf = (organization: OrganizationRow, kind: VerificationKind): VerificationStatus => {
  const status: string = kind === 'kyc' ? organization.kyc_status : organization.kyb_status;
  return isVerificationStatus(status) ? status : 'notStarted';
};

/**
 * A decision names the status it asks for (the action is its target), so the table reads
 * like the one above, by column. notStarted is no action's target from elsewhere.
 */
export const verificationMachine = defineMachine<VerificationStatus, VerificationStatus>({
  states: verificationStatuses,
  moves: {
    notStarted: { from: [], to: 'notStarted' },
    inProgress: { from: ['notStarted', 'submitted'], to: 'inProgress' },
    submitted: { from: ['notStarted', 'inProgress'], to: 'submitted' },
    approved: { from: ['notStarted', 'inProgress', 'submitted'], to: 'approved' },
    denied: { from: ['notStarted', 'inProgress', 'submitted'], to: 'denied' },
  },
  staysAllowed: true,
});

export const isVerificationStatus = (value: string): value is VerificationStatus => (verificationStatuses as readonly string[]).includes(value);

/** Is from → to a legal move? A stay (from === to) is not a move. */
export const canMove = (from: VerificationStatus, to: VerificationStatus) => verificationMachine.canMove(from, to);

/** The statuses that accept a new submission (the move to submitted, or a stay there). */
export const acceptsSubmission = (status: VerificationStatus) => status === 'submitted' || canMove(status, 'submitted');

const noun = (kind: VerificationKind) => (kind === 'kyc' ? 'KYC' : 'KYB');

/**
 * The status after asking for `to`: `to` itself for a legal move or a stay, else 409
 * `conflict` (thrown before anything is written, so a refusal never half-applies).
 */
export function nextStatus(kind: VerificationKind, organizationId: string, from: string, to: VerificationStatus): VerificationStatus {
  // A stored value outside the contract's enum (a hand-edited database) reads as notStarted.
  const current = isVerificationStatus(from) ? from : 'notStarted';
  if (verificationMachine.decide(current, to).allowed) return to;
  if (to === 'submitted') {
    throw new Problem('conflict', `The ${noun(kind)} of organization ${organizationId} is ${current} and accepts no more writes.`);
  }
  const why = current === 'approved' || current === 'denied' ? `${current} is a final decision` : 'a verification never returns to notStarted';
  throw new Problem('conflict', `The ${noun(kind)} of organization ${organizationId} cannot go from ${current} to ${to}: ${why}.`);
}

// ---- v1 projections -------------------------------------------------------------------

/** v1 KYB statuses are the v2 ones renamed, one for one. */
const v1KybByV2: Record<VerificationStatus, V1KybStatus> = {
  notStarted: 'not_started',
  inProgress: 'awaiting_documents',
  submitted: 'awaiting_review',
  approved: 'approved',
  denied: 'denied',
};

export const v1KybStatus = (status: VerificationStatus): V1KybStatus => v1KybByV2[status];

export const v2FromV1KybStatus = (status: V1KybStatus): VerificationStatus =>
  (Object.keys(v1KybByV2) as VerificationStatus[]).find((s) => v1KybByV2[s] === status)!;

/** The sandbox counts 4 customer-facing KYB requirements (v1SimulateKyb's table). */
export const v1KybRequirementTotal = 4;

export function v1KybCounts(status: VerificationStatus): { approved: number; submitted: number; notStarted: number; total: number } {
  const total = v1KybRequirementTotal;
  switch (status) {
    case 'notStarted': return { approved: 0, submitted: 0, notStarted: total, total };
    case 'inProgress': return { approved: 0, submitted: total / 2, notStarted: total / 2, total };
    case 'submitted': return { approved: 0, submitted: total, notStarted: 0, total };
    case 'approved': return { approved: total, submitted: 0, notStarted: 0, total };
    case 'denied': return { approved: 0, submitted: total, notStarted: 0, total };
  }
}

/**
 * The v1 KYC status of a v2 status. inProgress reads two ways: before any submission the
 * customer has not submitted yet (kyc_not_started); after one, a review asked for more
 * (kyc_rejected, which accepts a new submission). denied is kyc_rejected for good.
 */
export function v1KycStatus(status: VerificationStatus, submitted: boolean): V1KycStatus {
  switch (status) {
    case 'notStarted': return 'kyc_not_started';
    case 'inProgress': return submitted ? 'kyc_rejected' : 'kyc_not_started';
    case 'submitted': return 'kyc_proposed';
    case 'approved': return 'kyc_approved';
    case 'denied': return 'kyc_rejected';
  }
}

/** kyc_updated reports a review outcome: a move of the v1 status into one of these. */
export const isV1KycReviewOutcome = (status: V1KycStatus) => status === 'kyc_approved' || status === 'kyc_rejected';
