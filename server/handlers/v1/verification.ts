/** v1 KYC of a customer: read it (with the outstanding requirements) and submit it. */
import { v1Customer } from '../../domain/v1/common.ts';
import {
  presentV1Kyc,
  readVerification,
  submitVerification,
  v1KycRequirements,
  verificationKindOf,
} from '../../domain/verification.ts';
import { submissionErrors } from '../../domain/verificationInput.ts';
import { Problem, validationError } from '../../problems.ts';
import type { Handler } from '../types.ts';

const asked = (value: unknown) => value === true || value === 'true';

export const v1GetCustomerKyc: Handler<'v1GetCustomerKyc'> = async ({ params, query, caller, services }) => {
  const customer = await v1Customer(services.storage.db, caller, params.customer_id);
  const state = await readVerification(services, customer, verificationKindOf(customer));
  const kyc = presentV1Kyc(state);
  return { status: 200, body: asked(query.requirements) ? { ...kyc, requirements: v1KycRequirements(services.contract.document, state) } : kyc };
};

export const v1SubmitCustomerKyc: Handler<'v1SubmitCustomerKyc'> = async ({ params, body, caller, services }) => {
  // Rendered as {error, details} by server/submissionErrors.ts.
  const errors = submissionErrors(services.contract.document, 'V1SubmitKycRequest', body, services.clock.now());
  if (errors.length > 0) throw validationError(errors);
  const customer = await v1Customer(services.storage.db, caller, params.customer_id);
  if (verificationKindOf(customer) !== 'kyc') throw new Problem('conflict', 'KYC applies to personal customers only');
  const { state, notApplied } = await submitVerification(services, customer.id, 'kyc', 'v1', body, (status) =>
    status === 'approved' ? 'KYC is already approved' : 'KYC was denied for good and accepts no new submission',
  );
  const kyc = presentV1Kyc(state);
  return { status: 200, body: notApplied ? { ...kyc, needsWork: true, userMessage: notApplied } : kyc };
};
