/**
 * v1 sandbox simulators (tag Sandbox in v1.yaml): the money flows and the verification
 * provider. 403 `forbidden` in production.
 */
import { assertSandbox } from '../../shared/environment.ts';
import { issueV1OnboardingUrl, simulateV1BankAccount } from '../../features/v1/bankAccounts/simulators.ts';
import { confirmV1FiatReceived, simulateV1Order } from '../../features/v1/orders/simulators.ts';
import { presentV1BankAccount } from '../../features/v1/bankAccounts/presenters.ts';
import { presentV1Order } from '../../features/v1/orders/presenters.ts';
import { presentV1Swap } from '../../features/v1/swaps/presenters.ts';
import { simulateV1Swap } from '../../features/v1/swaps/simulators.ts';
import { actFor } from '../../features/organizations/scope.ts';
import { v1Customer } from '../../features/v1/common.ts';
import { presentV1Kyb, presentV1Kyc } from '../../features/verification/presenters.ts';
import { simulateV1CustomerKyc, simulateV1Kyb as decideV1Kyb } from '../../features/verification/simulators.ts';
import { Problem } from '../../shared/problems.ts';
import type { Handler } from '../types.ts';

export const v1ConfirmFiatReceived: Handler<'v1ConfirmFiatReceived'> = async ({ services, caller, body }) => {
  assertSandbox(services.config);
  return { status: 200, body: presentV1Order(await confirmV1FiatReceived(services, caller, body)) };
};

export const v1SimulateOrder: Handler<'v1SimulateOrder'> = async ({ services, caller, params, body }) => {
  assertSandbox(services.config);
  return { status: 200, body: presentV1Order(await simulateV1Order(services, caller, params.id, body.action)) };
};

export const v1SimulateSwap: Handler<'v1SimulateSwap'> = async ({ services, caller, params, body }) => {
  assertSandbox(services.config);
  return { status: 200, body: presentV1Swap(await simulateV1Swap(services, caller, params.id, body.action)) };
};

export const v1SimulateBankAccount: Handler<'v1SimulateBankAccount'> = async ({ services, caller, params, body }) => {
  assertSandbox(services.config);
  return { status: 200, body: presentV1BankAccount(await simulateV1BankAccount(services, caller, params.id, body)) };
};

export const v1CreateOnboardingUrl: Handler<'v1CreateOnboardingUrl'> = async ({ services, caller, params }) => {
  assertSandbox(services.config);
  return { status: 201, body: await issueV1OnboardingUrl(services, caller, params.customer_id) };
};

export const v1SimulateCustomerKyc: Handler<'v1SimulateCustomerKyc'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const customer = await v1Customer(services, caller, params.customer_id);
  return { status: 200, body: presentV1Kyc(await simulateV1CustomerKyc(services, customer, body)) };
};

export const v1SimulateKyb: Handler<'v1SimulateKyb'> = async ({ params, body, caller, services }) => {
  assertSandbox(services.config);
  const organization = await actFor(services, caller, params.org_id).catch((error: unknown) => {
    // v1 shows the message alone; a database that cannot answer is not a missing organization.
    throw error instanceof Problem && error.slug === 'not-found' ? new Problem('not-found', 'Organization not found') : error;
  });
  return { status: 200, body: presentV1Kyb(await decideV1Kyb(services, organization, body.status)) };
};
