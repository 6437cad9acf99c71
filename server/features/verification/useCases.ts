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
import { recordV1Event, recordV2Event } from '../webhooks/outbox.ts';
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

type Deps = Pick<Services, 'storage' | 'clock'>;

/**
 * Moves a verification to `to` (or stays) with `fields` changed: refused with 409 before
 * anything is written when the move is illegal; nothing is written (and no event sent) when
 * nothing changes. `announce` sends kycUpdated even without a status change (needsWork).
 */
async function apply(tx: Tx, deps: Deps, kind: VerificationKind, before: VerificationState, to: VerificationStatus, fields: Partial<Fields>, announce = false): Promise<VerificationState> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const { organization } = before;
  const from = statusOf(organization, kind);
  const next = nextStatus(kind, organization.id, from, to);
  const previous = fieldsOf(before.record);
  const wanted: Fields = { ...previous, ...fields };
  const statusChanged = next !== from;
  if (!statusChanged && sameFields(previous, wanted)) {
    if (announce && kind === 'kyc') await recordEvents(tx, kind, before, before, now, true);
    return before;
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
  await recordEvents(tx, kind, before, state, now, announce);
  return state;
}

/** The events of one change, for both generations (a partner may subscribe with either). */
async function recordEvents(tx: Tx, kind: VerificationKind, before: VerificationState, after: VerificationState, now: Date, announce: boolean) {
  const organization = after.organization;
  const base = { organization, occurredAt: now };
  const statusChanged = statusOf(before.organization, kind) !== statusOf(organization, kind);
  if (kind === 'kyc') {
    if (statusChanged || announce) await recordV2Event(tx, { ...base, type: 'kycUpdated', kyc: presentKyc(after) });
    const v1Before = presentV1Kyc(before).status;
    const v1After = presentV1Kyc(after);
    // kyc_updated reports a review: the v1 status moving to approved or rejected.
    if (v1Before !== v1After.status && isV1KycReviewOutcome(v1After.status)) {
      await recordV1Event(tx, { ...base, type: 'kyc_updated', entity: { ...v1After, customerId: organization.id } });
    }
  } else if (statusChanged) {
    await recordV2Event(tx, { ...base, type: 'kybUpdated', kyb: presentKyb(after) });
    await recordV1Event(tx, { ...base, type: 'kyb_updated', entity: presentV1Kyb(after) });
  }
  if (organization.parent_id && v1CustomerStatus(before.organization) !== v1CustomerStatus(organization)) {
    await recordV1Event(tx, { ...base, type: 'customer_updated', entity: presentV1Customer(organization) });
  }
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
  return deps.storage.db.transaction().execute(async (tx) => {
    const before = await lockState(tx, deps, organizationId, kind);
    const from = statusOf(before.organization, kind);
    if (refusal && !acceptsSubmission(from)) throw new Problem('conflict', refusal(from));
    nextStatus(kind, organizationId, from, 'submitted');
    if (kind === 'kyc' && submission.taxId === unapplicableTaxId) {
      // Accepted, not applied: nothing changes; kycUpdated carries the point-in-time message.
      await recordV2Event(tx, {
        type: 'kycUpdated', organization: before.organization, occurredAt: deps.clock.now(),
        kyc: { ...presentKyc(before), needsWork: true, userMessage: unapplicableMessage },
      });
      return { state: before, notApplied: unapplicableMessage };
    }
    const text = canonicalize(submission) ?? '{}';
    const previous = fieldsOf(before.record);
    const same = previous.submission === text && previous.submission_surface === surface;
    const state = await apply(tx, deps, kind, before, 'submitted', {
      submission: text,
      submission_surface: surface,
      submitted_at: same ? previous.submitted_at : deps.clock.now().toISOString(),
      needs_work: 0,
      user_message: null,
      update_reason: null,
      requirements: null,
    });
    return { state };
  });
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
  return deps.storage.db.transaction().execute(async (tx) => {
    const before = await lockState(tx, deps, organizationId, kind);
    const from = statusOf(before.organization, kind);
    if (decision.expect && from !== decision.expect.status) throw new Problem('conflict', decision.expect.detail);
    const to = decision.status;
    if (decision.refusal && from !== to && !canMove(from, to)) throw new Problem('conflict', decision.refusal(from));
    if (kind === 'kyb') return apply(tx, deps, kind, before, to, {});
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
    return apply(tx, deps, kind, before, to, fields, decision.needsWork === true);
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
