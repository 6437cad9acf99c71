/**
 * Sandbox simulators of the verification provider, for both generations. Each one moves
 * the same state through server/domain/verificationMachine.ts; all are 403 in production.
 */
import { assertSandbox } from '../../domain/environment.ts';
import { actFor } from '../../domain/scope.ts';
import { v1Customer } from '../../domain/v1/common.ts';
import {
  decideVerification,
  presentKyb,
  presentKyc,
  presentV1Kyb,
  presentV1Kyc,
  simulateKycErrors,
  verificationKindOf,
} from '../../domain/verification.ts';
import { v2FromV1KybStatus, v1KybStatus } from '../../domain/verificationMachine.ts';
import { Problem, validationError } from '../../problems.ts';
import type { Handler } from '../types.ts';

export const simulateKyc: Handler<'simulateKyc'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const errors = simulateKycErrors(body);
  if (errors.length > 0) throw validationError(errors);
  const organization = await actFor(services.storage.db, caller, params.organizationId);
  if (verificationKindOf(organization) !== 'kyc') throw new Problem('unsupported', `Organization ${organization.id} is a business; simulate its KYB.`);
  const state = await decideVerification(services, organization.id, 'kyc', { status: body.status, needsWork: body.needsWork ?? false, userMessage: body.userMessage });
  return { status: 200, body: presentKyc(state) };
};

export const simulateKyb: Handler<'simulateKyb'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const organization = await actFor(services.storage.db, caller, params.organizationId);
  if (verificationKindOf(organization) !== 'kyb') throw new Problem('unsupported', `Organization ${organization.id} is personal; simulate its KYC.`);
  return { status: 200, body: presentKyb(await decideVerification(services, organization.id, 'kyb', { status: body.status })) };
};

export const v1SimulateCustomerKyc: Handler<'v1SimulateCustomerKyc'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  if (body.status !== 'kyc_rejected') {
    if (body.updateReason !== undefined) throw new Problem('invalid-request', 'updateReason is only allowed with kyc_rejected');
    if (body.final === true) throw new Problem('invalid-request', 'final is only allowed with kyc_rejected');
  }
  const customer = await v1Customer(services.storage.db, caller, params.customer_id);
  if (verificationKindOf(customer) !== 'kyc') throw new Problem('conflict', 'No KYC submission awaiting review: the customer is a business, verified by KYB');
  const expect = { status: 'submitted' as const, detail: 'No KYC submission awaiting review' };
  const decision =
    body.status === 'kyc_approved'
      ? { status: 'approved' as const, expect }
      : body.final
        ? { status: 'denied' as const, updateReason: body.updateReason ?? 'The submitted documents could not be verified', expect }
        : { status: 'inProgress' as const, needsWork: true, updateReason: body.updateReason ?? 'The submitted documents could not be verified', expect };
  return { status: 200, body: presentV1Kyc(await decideVerification(services, customer.id, 'kyc', decision)) };
};

export const v1SimulateKyb: Handler<'v1SimulateKyb'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const organization = await actFor(services.storage.db, caller, params.org_id).catch(() => {
    throw new Problem('not-found', 'Organization not found');
  });
  if (verificationKindOf(organization) !== 'kyb') throw new Problem('conflict', 'KYB applies to business organizations only');
  const to = v2FromV1KybStatus(body.status);
  const state = await decideVerification(services, organization.id, 'kyb', {
    status: to,
    refusal: (from) => `KYB cannot go from ${v1KybStatus(from)} to ${body.status}: ${from === 'approved' || from === 'denied' ? 'it is a final decision' : 'a KYB never returns to not_started'}`,
  });
  return { status: 200, body: presentV1Kyb(state) };
};
