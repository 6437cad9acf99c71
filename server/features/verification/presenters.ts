/**
 * Verifications exactly as their GETs return them, for both generations (and as kycUpdated,
 * kybUpdated, kyc_updated and kyb_updated carry them): one presenter per contract schema.
 */
import type { components } from '../../../generated/types/ramp.ts';
import { dottedPath, requiredFields } from './input.ts';
import { statusOf, v1KybCounts, v1KybStatus, v1KycStatus, type VerificationState } from './machine.ts';
import type { VerificationRow } from './repository.ts';

type Schemas = components['schemas'];
type Json = Record<string, any>;

/** The v1 updateReason of a rejection the provider did not word. */
export const defaultRejection = 'The submitted documents could not be verified';
const defaultDenial = 'The identity verification was denied';
export const startMessage = 'Submit your identity information to start verification';

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

export const needsWorkOf = (record: VerificationRow | undefined) => record?.needs_work === 1;
export const submissionOf = (record: VerificationRow | undefined): Json | undefined => (record?.submission ? JSON.parse(record.submission) : undefined);

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
