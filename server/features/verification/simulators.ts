/**
 * The sandbox's verification provider, for both generations (`simulateKyc`, `simulateKyb`,
 * `v1SimulateCustomerKyc`, `v1SimulateKyb`): each decision moves the one verification
 * through ./machine.ts like a real provider's would. 403 in production (the handlers' guard).
 */
import { Problem } from '../../shared/problems.ts';
import type { ChangeDeps } from '../stateChange.ts';
import type { components } from '../../../generated/types/ramp.ts';
import type { OrganizationRow } from '../organizations/repository.ts';
import { v1KybStatus, v2FromV1KybStatus, verificationKindOf, type VerificationState, type VerificationStatus } from './machine.ts';
import { defaultRejection } from './presenters.ts';
import { decideVerification, type Decision } from './useCases.ts';

type Schemas = components['schemas'];
type Deps = ChangeDeps;

/** The rules of a v2 KYC simulation that its schema cannot say (400 validation-error). */
export function simulateKycErrors(body: { status: VerificationStatus; needsWork?: boolean; userMessage?: string }) {
  const errors: { pointer: string; detail: string }[] = [];
  if (body.needsWork && body.status !== 'notStarted' && body.status !== 'inProgress') {
    errors.push({ pointer: '/needsWork', detail: 'can be true only with status notStarted or inProgress' });
  }
  if (body.userMessage !== undefined && !body.needsWork) errors.push({ pointer: '/userMessage', detail: 'is allowed only with needsWork true' });
  return errors;
}

/** `simulateKyc`: any decision on a person's KYC, with the provider's needsWork and userMessage. */
export async function simulateKyc(deps: Deps, organization: OrganizationRow, body: Schemas['SimulateKycRequest']): Promise<VerificationState> {
  if (verificationKindOf(organization) !== 'kyc') throw new Problem('unsupported', `Organization ${organization.id} is a business; simulate its KYB.`);
  return decideVerification(deps, organization.id, 'kyc', { status: body.status, needsWork: body.needsWork ?? false, userMessage: body.userMessage });
}

/** `simulateKyb`: any decision on a business's KYB. */
export async function simulateKyb(deps: Deps, organization: OrganizationRow, status: VerificationStatus): Promise<VerificationState> {
  if (verificationKindOf(organization) !== 'kyb') throw new Problem('unsupported', `Organization ${organization.id} is personal; simulate its KYC.`);
  return decideVerification(deps, organization.id, 'kyb', { status });
}

/**
 * `v1SimulateCustomerKyc`: the review of a submitted KYC. A rejection asks for more (the next
 * stage) unless `final`, which denies it for good; only a rejection carries `updateReason`.
 */
export async function simulateV1CustomerKyc(deps: Deps, customer: OrganizationRow, body: Schemas['V1SimulateKycRequest']): Promise<VerificationState> {
  if (body.status !== 'kyc_rejected') {
    if (body.updateReason !== undefined) throw new Problem('invalid-request', 'updateReason is only allowed with kyc_rejected');
    if (body.final === true) throw new Problem('invalid-request', 'final is only allowed with kyc_rejected');
  }
  if (verificationKindOf(customer) !== 'kyc') throw new Problem('conflict', 'No KYC submission awaiting review: the customer is a business, verified by KYB');
  const expect = { status: 'submitted' as const, detail: 'No KYC submission awaiting review' };
  const decision: Decision =
    body.status === 'kyc_approved'
      ? { status: 'approved', expect }
      : body.final
        ? { status: 'denied', updateReason: body.updateReason ?? defaultRejection, expect }
        : { status: 'inProgress', needsWork: true, updateReason: body.updateReason ?? defaultRejection, expect };
  return decideVerification(deps, customer.id, 'kyc', decision);
}

/** `v1SimulateKyb`: a KYB decision in v1 words. */
export async function simulateV1Kyb(deps: Deps, organization: OrganizationRow, status: Schemas['V1KybStatus']): Promise<VerificationState> {
  if (verificationKindOf(organization) !== 'kyb') throw new Problem('conflict', 'KYB applies to business organizations only');
  return decideVerification(deps, organization.id, 'kyb', {
    status: v2FromV1KybStatus(status),
    refusal: (from) => `KYB cannot go from ${v1KybStatus(from)} to ${status}: ${from === 'approved' || from === 'denied' ? 'it is a final decision' : 'a KYB never returns to not_started'}`,
  });
}
