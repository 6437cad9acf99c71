/** v1 KYC of a customer: read it (with the outstanding requirements) and submit it. */
import { v1Customer } from '../../features/v1/common.ts';
import { submissionErrors } from '../../features/verification/input.ts';
import { verificationKindOf } from '../../features/verification/machine.ts';
import { presentV1Kyc, v1KycRequirements } from '../../features/verification/presenters.ts';
import { readVerification, submitV1Kyc } from '../../features/verification/useCases.ts';
import { asked } from '../../http/query.ts';
import { validationError } from '../../shared/problems.ts';
import type { Handler } from '../types.ts';

export const v1GetCustomerKyc: Handler<'v1GetCustomerKyc'> = async ({ params, query, caller, services }) => {
  const customer = await v1Customer(services, caller, params.customer_id);
  const state = await readVerification(services, customer, verificationKindOf(customer));
  const kyc = presentV1Kyc(state);
  return { status: 200, body: asked(query.requirements) ? { ...kyc, requirements: v1KycRequirements(services.contract.document, state) } : kyc };
};

export const v1SubmitCustomerKyc: Handler<'v1SubmitCustomerKyc'> = async ({ params, body, caller, services }) => {
  // Rendered as {error, details} by server/http/submissionErrors.ts.
  const errors = submissionErrors(services.contract.document, 'V1SubmitKycRequest', body, services.clock.now());
  if (errors.length > 0) throw validationError(errors);
  const customer = await v1Customer(services, caller, params.customer_id);
  const { state, notApplied } = await submitV1Kyc(services, customer, body);
  const kyc = presentV1Kyc(state);
  return { status: 200, body: notApplied ? { ...kyc, needsWork: true, userMessage: notApplied } : kyc };
};
