/**
 * One verification per organization, seen by both generations: v2 speaks its KYC/KYB
 * statuses (notStarted, inProgress, submitted, approved, denied); v1 projects them onto
 * its own vocabulary. The organization row holds the v2 status (`kyc_status` for a person,
 * `kyb_status` for a business); the `verifications` row holds the rest (submission,
 * needsWork, userMessage, the stage's requirements, the v1 updateReason). The moves are in
 * ./verificationMachine.ts; every change runs here, in one transaction with its events.
 */
import canonicalize from 'canonicalize';
import type { components } from '../../generated/types/ramp.ts';
import { Problem } from '../problems.ts';
import type { Services } from '../services.ts';
import type { Tx } from '../storage/database.ts';
import { organizationsRepository, type OrganizationRow } from '../storage/organizations.ts';
import { verificationsRepository, type VerificationRow } from '../storage/verifications.ts';
import { recordV1Event, recordV2Event } from '../webhooks/outbox.ts';
import { presentV1Customer } from './organizationPresenters.ts';
import { dottedPath, requiredFields } from './verificationInput.ts';
import {
  acceptsSubmission,
  canMove,
  isV1KycReviewOutcome,
  isVerificationStatus,
  nextStatus,
  v1KybCounts,
  v1KybStatus,
  v1KycStatus,
  type VerificationKind,
} from './verificationMachine.ts';

export type VerificationStatus = 'notStarted' | 'inProgress' | 'submitted' | 'approved' | 'denied';

export type V1CustomerStatus = 'customer_pending' | 'customer_verified' | 'customer_failed';

type Schemas = components['schemas'];
type Json = Record<string, any>;

/**
 * v1 customer status (seed part 3, "Other state sets"): verified once approved, failed
 * once denied for good, pending while the verification can still be completed (a review
 * that asks for more keeps the customer pending). Pass the organization row: a person
 * follows its KYC, a business its KYB. A bare string is read as a KYC status.
 */
export function v1CustomerStatus(
  subject: string | { type: 'business' | 'personal'; kyc_status: string; kyb_status: string },
): V1CustomerStatus {
  const status = typeof subject === 'string' ? subject : subject.type === 'business' ? subject.kyb_status : subject.kyc_status;
  if (status === 'approved') return 'customer_verified';
  if (status === 'denied') return 'customer_failed';
  return 'customer_pending';
}

// ---- state ------------------------------------------------------------------------------

export interface VerificationState {
  organization: OrganizationRow;
  record: VerificationRow | undefined;
}

/** A person is verified by KYC, a business by KYB. */
export const verificationKindOf = (organization: Pick<OrganizationRow, 'type'>): VerificationKind => (organization.type === 'business' ? 'kyb' : 'kyc');

export const statusOf = (organization: OrganizationRow, kind: VerificationKind): VerificationStatus => {
  const status = kind === 'kyc' ? organization.kyc_status : organization.kyb_status;
  return isVerificationStatus(status) ? status : 'notStarted';
};

/** The verification of an organization, read outside any change. */
export async function readVerification(services: Pick<Services, 'storage'>, organization: OrganizationRow, kind: VerificationKind): Promise<VerificationState> {
  return { organization, record: await verificationsRepository(services.storage.db).find(organization.id, kind) };
}

/** Locks the organization row (PostgreSQL; SQLite serializes writers) and reads the state. */
async function lockState(tx: Tx, services: Pick<Services, 'storage'>, organizationId: string, kind: VerificationKind): Promise<VerificationState> {
  let query = tx.selectFrom('organizations').selectAll().where('id', '=', organizationId);
  if (services.storage.engine === 'postgres') query = query.forUpdate();
  const organization = await query.executeTakeFirst();
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
const defaultRejection = 'The submitted documents could not be verified';
const defaultDenial = 'The identity verification was denied';
const startMessage = 'Submit your identity information to start verification';
const continueMessage = 'Please complete the outstanding requirements';

const fieldDescriptions: Record<string, string> = {
  firstName: 'Given name(s) as they appear on the ID',
  lastName: 'First surname (apellido paterno)',
  birthDate: 'Date of birth; the customer must be 18 or older',
  birthCountryIsoCode: 'Country of birth (ISO 3166-1 alpha-2)',
  nationality: 'Nationality (ISO 3166-1 alpha-2)',
  countryIsoCode: 'Country of residence (ISO 3166-1 alpha-2)',
  taxId: 'RFC or CURP of the customer',
  email: 'Email address',
  phone: 'Phone number in E.164 form',
  address: 'Home address',
};

// ---- presenters: each object exactly as its GET returns it -------------------------------

const needsWorkOf = (record: VerificationRow | undefined) => record?.needs_work === 1;
const submissionOf = (record: VerificationRow | undefined): Json | undefined => (record?.submission ? JSON.parse(record.submission) : undefined);

export function presentKyc({ organization, record }: VerificationState): Schemas['Kyc'] {
  const status = statusOf(organization, 'kyc');
  const needsWork = needsWorkOf(record);
  return {
    status,
    approved: status === 'approved',
    needsWork,
    ...(needsWork && record?.user_message ? { userMessage: record.user_message } : {}),
    updatedAt: record?.updated_at ?? organization.created_at,
  };
}

/** The outstanding requirements, resolved from the state on each read. */
export function kycRequirements(document: Json, { organization, record }: VerificationState): Schemas['KycRequirement'][] {
  const status = statusOf(organization, 'kyc');
  if (status === 'notStarted' || (status === 'inProgress' && !record?.submitted_at)) {
    return requiredFields(document, 'KycRequest').map((field) => ({
      field: `/${field}`,
      reason: 'missing' as const,
      description: fieldDescriptions[field] ?? `Send ${field}`,
    }));
  }
  if (status === 'inProgress') return record?.requirements ? JSON.parse(record.requirements) : [];
  return [];
}

export function presentKyb({ organization, record }: VerificationState): Schemas['Kyb'] {
  return {
    status: statusOf(organization, 'kyb'),
    approvedAt: organization.kyb_approved_at,
    updatedAt: record?.updated_at ?? organization.kyb_approved_at ?? organization.created_at,
  };
}

/** v1 KYC: on approval only status and approved; never null fields. */
export function presentV1Kyc({ organization, record }: VerificationState): Schemas['V1Kyc'] {
  if (organization.type === 'business') {
    // A business customer is verified by KYB: its KYB read in KYC words.
    const status = statusOf(organization, 'kyb');
    if (status === 'approved') return { status: 'kyc_approved', approved: true };
    if (status === 'submitted') return { status: 'kyc_proposed', approved: false, needsWork: false };
    if (status === 'denied') return { status: 'kyc_rejected', approved: false, updateReason: 'The business verification (KYB) was denied', needsWork: false };
    return { status: 'kyc_not_started', approved: false, needsWork: true, userMessage: 'Complete the business verification (KYB)' };
  }
  const status = statusOf(organization, 'kyc');
  const v1 = v1KycStatus(status, Boolean(record?.submitted_at));
  switch (v1) {
    case 'kyc_approved':
      return { status: v1, approved: true };
    case 'kyc_proposed':
      return { status: v1, approved: false, needsWork: false };
    case 'kyc_not_started':
      return { status: v1, approved: false, needsWork: true, userMessage: (needsWorkOf(record) && record?.user_message) || startMessage };
    case 'kyc_rejected': {
      if (status === 'denied') return { status: v1, approved: false, updateReason: record?.update_reason ?? defaultDenial, needsWork: false };
      const reason = record?.update_reason ?? record?.user_message ?? defaultRejection;
      return { status: v1, approved: false, updateReason: reason, needsWork: true, userMessage: record?.user_message ?? reason };
    }
  }
}

export function v1KycRequirements(document: Json, state: VerificationState): Schemas['V1KycRequirement'][] {
  const { organization, record } = state;
  if (organization.type === 'business') return [];
  const status = statusOf(organization, 'kyc');
  const v1 = v1KycStatus(status, Boolean(record?.submitted_at));
  if (v1 === 'kyc_not_started') {
    return requiredFields(document, 'V1SubmitKycRequest').map((field) => ({ field, kind: 'field' as const, description: fieldDescriptions[field] ?? `Send ${field}` }));
  }
  if (v1 === 'kyc_rejected' && status === 'inProgress') {
    return kycRequirements(document, state).map((r) => ({ field: dottedPath(r.field), kind: 'field' as const, description: r.description }));
  }
  return [];
}

export function presentV1Kyb({ organization }: VerificationState): Schemas['V1Kyb'] {
  const status = statusOf(organization, 'kyb');
  return { organizationId: organization.id, status: v1KybStatus(status), approvedAt: organization.kyb_approved_at, ...v1KybCounts(status) };
}

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

type Deps = Pick<Services, 'storage' | 'clock' | 'realClock'>;

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
    if (announce && kind === 'kyc') await recordEvents(tx, deps, kind, before, before, now, true);
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
  await recordEvents(tx, deps, kind, before, state, now, announce);
  return state;
}

/** The events of one change, for both generations (a partner may subscribe with either). */
async function recordEvents(tx: Tx, deps: Deps, kind: VerificationKind, before: VerificationState, after: VerificationState, now: Date, announce: boolean) {
  const organization = after.organization;
  const base = { organization, occurredAt: now, deliverFrom: deps.realClock.now() };
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
        type: 'kycUpdated', organization: before.organization, occurredAt: deps.clock.now(), deliverFrom: deps.realClock.now(),
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

/** The rules of a v2 KYC simulation that its schema cannot say (400 validation-error). */
export function simulateKycErrors(body: { status: VerificationStatus; needsWork?: boolean; userMessage?: string }) {
  const errors: { pointer: string; detail: string }[] = [];
  if (body.needsWork && body.status !== 'notStarted' && body.status !== 'inProgress') {
    errors.push({ pointer: '/needsWork', detail: 'can be true only with status notStarted or inProgress' });
  }
  if (body.userMessage !== undefined && !body.needsWork) errors.push({ pointer: '/userMessage', detail: 'is allowed only with needsWork true' });
  return errors;
}
