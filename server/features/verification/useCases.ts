/**
 * One verification per organization, seen by both generations: v2 speaks its KYC/KYB
 * statuses (notStarted, inProgress, submitted, approved, denied); v1 projects them onto
 * its own vocabulary. The organization row holds the v2 status (`kyc_status` for a person,
 * `kyb_status` for a business); the `verifications` row holds the rest (submission,
 * needsWork, userMessage, the stage's requirements, the v1 updateReason). The moves are in
 * ./machine.ts; every change runs here, in one transaction with its events.
 */
import canonicalize from 'canonicalize';
import type { components } from '../../../generated/types/ramp.ts';
import { Problem } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import type { Tx } from '../../storage/database.ts';
import { organizationsRepository, type OrganizationRow } from '../organizations/repository.ts';
import { verificationsRepository, type VerificationRow } from './repository.ts';
import { changeState, type ChangeDeps, type ChangeEvent } from '../stateChange.ts';
import { presentV1Customer } from '../v1/customers/presenters.ts';
import {
  acceptsSubmission,
  canMove,
  isV1KycReviewOutcome,
  nextStatus,
  statusOf,
  verificationKindOf,
  v1CustomerStatus,
  type VerificationKind,
  type VerificationState,
  type VerificationStatus,
} from './machine.ts';
import { presentKyb, presentKyc, presentV1Kyb, presentV1Kyc, startMessage, submissionOf } from './presenters.ts';

type Schemas = components['schemas'];
type Json = Record<string, any>;

/** The verification of an organization, read outside any change. */
export async function readVerification(services: Pick<Services, 'storage'>, organization: OrganizationRow, kind: VerificationKind): Promise<VerificationState> {
  return { organization, record: await verificationsRepository(services.storage.db).find(organization.id, kind) };
}

/** Locks the organization row (PostgreSQL; SQLite serializes writers) and reads the state. */
async function lockState(tx: Tx, services: Pick<Services, 'storage'>, organizationId: string, kind: VerificationKind): Promise<VerificationState> {
  const organization = await organizationsRepository(tx, services.storage.engine).findForUpdate(organizationId);
  if (!organization) throw new Problem('not-found', `Organization ${organizationId} was not found.`);
  return { organization, record: await verificationsRepository(tx).find(organizationId, kind) };
}

// ---- the sandbox provider ---------------------------------------------------------------

/**
 * The generic RFC of "público en general": it passes every format check, but the
 * verification provider refuses to file a person under it. The sandbox uses it to show an
 * accepted write that cannot be applied (`kycUpdated` with needsWork, nothing stored).
 */
export const unapplicableTaxId = 'XAXX010101000';
const unapplicableMessage = 'The RFC XAXX010101000 is the generic RFC for the general public and cannot identify a person. Send your own RFC or CURP.';

/** What the next verification stage asks for (the sandbox's stage two): a checked address. */
export function nextStageRequirements(submission: Json | undefined): Schemas['KycRequirement'][] {
  const requirements: Schemas['KycRequirement'][] = [
    { field: '/address/postalCode', reason: 'rejected', description: 'The postal code does not match the proof of address. Send it again as it appears on a proof of address issued in the last three months.' },
  ];
  if (!submission?.secondLastName) {
    requirements.push({ field: '/secondLastName', reason: 'missing', description: 'Send the second surname as it appears on the ID, if the person has one.' });
  }
  return requirements;
}

const nextStageMessage = 'Your proof of address could not be matched. Please send your postal code again as it appears on a recent proof of address.';
const continueMessage = 'Please complete the outstanding requirements';


// ---- changes ----------------------------------------------------------------------------

type Fields = Pick<VerificationRow, 'needs_work' | 'user_message' | 'update_reason' | 'requirements' | 'submission' | 'submission_surface' | 'submitted_at'>;

const fieldsOf = (record: VerificationRow | undefined): Fields => ({
  needs_work: record?.needs_work ?? 0,
  user_message: record?.user_message ?? null,
  update_reason: record?.update_reason ?? null,
  requirements: record?.requirements ?? null,
  submission: record?.submission ?? null,
  submission_surface: record?.submission_surface ?? null,
  submitted_at: record?.submitted_at ?? null,
});

const sameFields = (a: Fields, b: Fields) => (Object.keys(a) as (keyof Fields)[]).every((k) => a[k] === b[k]);

type Deps = ChangeDeps;

/**
 * What one change of a verification does: ask the machine for `to` (or stay) with `fields`
 * changed, `announce` sending kycUpdated even without a status change (needsWork); or, for a
 * write accepted but not applied, change nothing and send kycUpdated with the point-in-time
 * `notApplied` message.
 */
type VerificationChange = { to: VerificationStatus; fields: Partial<Fields>; announce: boolean } | { notApplied: string };

/**
 * One change of a verification (features/stateChange.ts): the organization row locked, the
 * move refused with 409 before anything is written when the machine does not allow it;
 * nothing written (and no event sent) when nothing changes.
 */
function changeVerification(
  deps: Deps,
  organizationId: string,
  kind: VerificationKind,
  decide: (before: VerificationState, from: VerificationStatus, now: Date) => VerificationChange,
): Promise<VerificationState> {
  return changeState<VerificationState, VerificationChange>(deps, {
    lock: (tx) => lockState(tx, deps, organizationId, kind),
    decide(before, now) {
      const from = statusOf(before.organization, kind);
      const change = decide(before, from, now);
      if ('notApplied' in change) return change;
      return { ...change, to: nextStatus(kind, organizationId, from, change.to) };
    },
    async write(tx, before, change, now) {
      if ('notApplied' in change) {
        const kyc = { ...presentKyc(before), needsWork: true, userMessage: change.notApplied };
        return { row: before, events: [{ type: 'kycUpdated', organization: before.organization, object: { kyc } }] };
      }
      const at = now.toISOString();
      const { organization } = before;
      const next = change.to;
      const previous = fieldsOf(before.record);
      const wanted: Fields = { ...previous, ...change.fields };
      const statusChanged = next !== statusOf(organization, kind);
      if (!statusChanged && sameFields(previous, wanted)) {
        return { row: before, events: change.announce && kind === 'kyc' ? eventsOf(kind, before, before, true) : [] };
      }
      let after = organization;
      if (statusChanged) {
        const changes = kind === 'kyc'
          ? { kyc_status: next, updated_at: at }
          : { kyb_status: next, kyb_approved_at: next === 'approved' ? at : organization.kyb_approved_at, updated_at: at };
        await organizationsRepository(tx).update(organization.id, changes);
        after = { ...organization, ...changes };
      }
      const record: VerificationRow = { organization_id: organization.id, kind, ...wanted, updated_at: at };
      await verificationsRepository(tx).save(record);
      const state = { organization: after, record };
      return { row: state, events: eventsOf(kind, before, state, change.announce) };
    },
  });
}

/** The events of one change, for both generations (a partner may subscribe with either). */
function eventsOf(kind: VerificationKind, before: VerificationState, after: VerificationState, announce: boolean): ChangeEvent[] {
  const organization = after.organization;
  const events: ChangeEvent[] = [];
  const statusChanged = statusOf(before.organization, kind) !== statusOf(organization, kind);
  if (kind === 'kyc') {
    if (statusChanged || announce) events.push({ type: 'kycUpdated', organization, object: { kyc: presentKyc(after) } });
    const v1Before = presentV1Kyc(before).status;
    const v1After = presentV1Kyc(after);
    // kyc_updated reports a review: the v1 status moving to approved or rejected.
    if (v1Before !== v1After.status && isV1KycReviewOutcome(v1After.status)) {
      events.push({ type: 'kyc_updated', organization, entity: { ...v1After, customerId: organization.id } });
    }
  } else if (statusChanged) {
    events.push({ type: 'kybUpdated', organization, object: { kyb: presentKyb(after) } });
    events.push({ type: 'kyb_updated', organization, entity: presentV1Kyb(after) });
  }
  if (organization.parent_id && v1CustomerStatus(before.organization) !== v1CustomerStatus(organization)) {
    events.push({ type: 'customer_updated', organization, entity: presentV1Customer(organization) });
  }
  return events;
}

export interface SubmitResult {
  state: VerificationState;
  /** Set when the write was accepted but could not be applied: the point-in-time message. */
  notApplied?: string;
}

/**
 * A KYC or KYB submission (already checked field by field): the verification becomes
 * submitted, the latest accepted submission replacing the previous one. Repeating the same
 * submission changes nothing. 409 at approved or denied.
 */
export async function submitVerification(
  deps: Deps,
  organizationId: string,
  kind: VerificationKind,
  surface: 'v1' | 'v2',
  submission: Json,
  /** The 409 detail for a verification that accepts no write, when the caller words it (v1). */
  refusal?: (status: VerificationStatus) => string,
): Promise<SubmitResult> {
  let notApplied: string | undefined;
  const state = await changeVerification(deps, organizationId, kind, (before, from, now) => {
    if (refusal && !acceptsSubmission(from)) throw new Problem('conflict', refusal(from));
    nextStatus(kind, organizationId, from, 'submitted');
    // Accepted, not applied: nothing changes; kycUpdated carries the point-in-time message.
    if (kind === 'kyc' && submission.taxId === unapplicableTaxId) return { notApplied: (notApplied = unapplicableMessage) };
    const text = canonicalize(submission) ?? '{}';
    const previous = fieldsOf(before.record);
    const same = previous.submission === text && previous.submission_surface === surface;
    const fields = {
      submission: text,
      submission_surface: surface,
      submitted_at: same ? previous.submitted_at : now.toISOString(),
      needs_work: 0,
      user_message: null,
      update_reason: null,
      requirements: null,
    };
    return { to: 'submitted', fields, announce: false };
  });
  return notApplied === undefined ? { state } : { state, notApplied };
}

export interface Decision {
  status: VerificationStatus;
  /** KYC only: the customer must fix or add something; userMessage says what. */
  needsWork?: boolean;
  userMessage?: string | undefined;
  /** v1 `updateReason` of a rejection or denial. */
  updateReason?: string | undefined;
  /** Refuse (409, this detail) unless the verification is at this status now. */
  expect?: { status: VerificationStatus; detail: string };
  /** The 409 detail of an illegal move, when the caller words it (v1). */
  refusal?: (from: VerificationStatus) => string;
}

/**
 * A decision of the verification provider (the sandbox simulators): a move of the machine,
 * or a stay that updates needsWork. submitted → inProgress is the next stage arriving: it
 * always needs work and brings the stage's requirements.
 */
export async function decideVerification(deps: Deps, organizationId: string, kind: VerificationKind, decision: Decision): Promise<VerificationState> {
  return changeVerification(deps, organizationId, kind, (before, from) => {
    if (decision.expect && from !== decision.expect.status) throw new Problem('conflict', decision.expect.detail);
    const to = decision.status;
    if (decision.refusal && from !== to && !canMove(from, to)) throw new Problem('conflict', decision.refusal(from));
    if (kind === 'kyb') return { to, fields: {}, announce: false };
    let fields: Partial<Fields>;
    if (to === 'approved' || to === 'submitted') {
      fields = { needs_work: 0, user_message: null, update_reason: null, requirements: null };
    } else if (to === 'denied') {
      fields = { needs_work: 0, user_message: null, update_reason: decision.updateReason ?? null, requirements: null };
    } else if (from === 'submitted' && to === 'inProgress') {
      const message = decision.userMessage ?? decision.updateReason ?? nextStageMessage;
      fields = {
        needs_work: 1,
        user_message: message,
        update_reason: decision.updateReason ?? null,
        requirements: JSON.stringify(nextStageRequirements(submissionOf(before.record))),
      };
    } else if (decision.needsWork) {
      fields = { needs_work: 1, user_message: decision.userMessage ?? (to === 'notStarted' ? `${startMessage}.` : `${continueMessage}.`) };
    } else {
      fields = { needs_work: 0, user_message: null };
    }
    return { to, fields, announce: decision.needsWork === true };
  });
}

/** A person has a KYC, a business a KYB: the other one is 422 `unsupported` (v2). */
export function assertKind(organization: OrganizationRow, kind: VerificationKind, instead: string) {
  if (verificationKindOf(organization) === kind) return;
  throw new Problem('unsupported', `Organization ${organization.id} is ${organization.type === 'business' ? 'a business' : 'personal'}; ${instead}.`);
}

/** `v1SubmitCustomerKyc`: a person's KYC, refused in v1 words once decided. */
export function submitV1Kyc(deps: Deps, customer: OrganizationRow, submission: Json): Promise<SubmitResult> {
  if (verificationKindOf(customer) !== 'kyc') throw new Problem('conflict', 'KYC applies to personal customers only');
  return submitVerification(deps, customer.id, 'kyc', 'v1', submission, (status) =>
    status === 'approved' ? 'KYC is already approved' : 'KYC was denied for good and accepts no new submission',
  );
}
