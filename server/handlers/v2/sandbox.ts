/**
 * v2 sandbox simulators (tag Sandbox in v2.yaml): deposits, orders, payment accounts, the
 * verification provider and webhook resends. 403 `forbidden` in production.
 */
import { assertSandbox } from '../../shared/environment.ts';
import { simulateDeposit as deposit, simulateOrder as move } from '../../features/orders/useCases.ts';
import { simulatePaymentAccount as setAccount } from '../../features/paymentAccounts/useCases.ts';
import { actFor } from '../../features/organizations/scope.ts';
import { presentKyb, presentKyc } from '../../features/verification/presenters.ts';
import { simulateKyb as decideKyb, simulateKyc as decideKyc, simulateKycErrors } from '../../features/verification/simulators.ts';
import { resendEvent } from '../../features/webhooks/subscriptions.ts';
import { validationError } from '../../shared/problems.ts';
import type { Handler } from '../types.ts';

export const simulateDeposit: Handler<'simulateDeposit'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const organization = await actFor(services.storage.db, caller, params.organizationId);
  return { status: 200, body: await deposit(services, organization, params.id, body ?? {}) };
};

export const simulateOrder: Handler<'simulateOrder'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const organization = await actFor(services.storage.db, caller, params.organizationId);
  return { status: 200, body: await move(services, organization, params.id, body) };
};

export const simulatePaymentAccount: Handler<'simulatePaymentAccount'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const organization = await actFor(services.storage.db, caller, params.organizationId);
  return { status: 200, body: await setAccount(services, organization, params.id, body) };
};

export const simulateKyc: Handler<'simulateKyc'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const errors = simulateKycErrors(body);
  if (errors.length > 0) throw validationError(errors);
  const organization = await actFor(services.storage.db, caller, params.organizationId);
  return { status: 200, body: presentKyc(await decideKyc(services, organization, body)) };
};

export const simulateKyb: Handler<'simulateKyb'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const organization = await actFor(services.storage.db, caller, params.organizationId);
  return { status: 200, body: presentKyb(await decideKyb(services, organization, body.status)) };
};

/** Re-sends a stored v2 event to the partner's current subscriptions. */
export const resendWebhookEvent: Handler<'resendWebhookEvent'> = async ({ params, caller, services }) => {
  return { status: 202, body: await resendEvent(services, caller.organization.id, params.eventId) };
};
