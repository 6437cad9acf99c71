/** Sandbox simulators of the v1 money flows; every one is 403 in production. */
import { assertSandbox } from '../../domain/environment.ts';
import { issueV1OnboardingUrl, simulateV1BankAccount } from '../../domain/v1/bankAccounts.ts';
import { confirmV1FiatReceived, simulateV1Order } from '../../domain/v1/orders.ts';
import { presentV1BankAccount, presentV1Order, presentV1Swap } from '../../domain/v1/presenters.ts';
import { simulateV1Swap } from '../../domain/v1/swaps.ts';
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
