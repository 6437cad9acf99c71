/** v2 verification: the KYC of a personal organization, the KYB of a business. */
import { actFor } from '../../features/organizations/scope.ts';
import { submissionErrors } from '../../features/verification/input.ts';
import { kycRequirements, presentKyb, presentKyc } from '../../features/verification/presenters.ts';
import { assertKind, readVerification, submitVerification } from '../../features/verification/useCases.ts';
import { validationError } from '../../shared/problems.ts';
import { asked } from '../../http/query.ts';
import type { Handler } from '../types.ts';

export const getKyc: Handler<'getKyc'> = async ({ params, query, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  assertKind(organization, 'kyc', 'it has a KYB, not a KYC');
  const state = await readVerification(services, organization, 'kyc');
  const kyc = presentKyc(state);
  return { status: 200, body: asked(query.requirements) ? { ...kyc, requirements: kycRequirements(services.contract.document, state) } : kyc };
};

export const submitKyc: Handler<'submitKyc'> = async ({ params, body, caller, services }) => {
  // Every field first (as for a body the contract's shape rules refuse), then who it is for.
  const errors = submissionErrors(services.contract.document, 'KycRequest', body, services.clock.now());
  if (errors.length > 0) throw validationError(errors);
  const organization = await actFor(services, caller, params.organizationId);
  assertKind(organization, 'kyc', 'submit a KYB instead');
  const { state, notApplied } = await submitVerification(services, organization.id, 'kyc', 'v2', body);
  const kyc = presentKyc(state);
  return { status: 200, body: notApplied ? { ...kyc, needsWork: true, userMessage: notApplied } : kyc };
};

export const getKyb: Handler<'getKyb'> = async ({ params, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  assertKind(organization, 'kyb', 'it has a KYC, not a KYB');
  return { status: 200, body: presentKyb(await readVerification(services, organization, 'kyb')) };
};

export const submitKyb: Handler<'submitKyb'> = async ({ params, body, caller, services }) => {
  const errors = submissionErrors(services.contract.document, 'KybRequest', body, services.clock.now());
  if (errors.length > 0) throw validationError(errors);
  const organization = await actFor(services, caller, params.organizationId);
  assertKind(organization, 'kyb', 'submit a KYC instead');
  const { state } = await submitVerification(services, organization.id, 'kyb', 'v2', body);
  return { status: 200, body: presentKyb(state) };
};
