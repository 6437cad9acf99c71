/** v2 sandbox simulators of deposits, orders and payment accounts; 403 in production. */
import { assertSandbox } from '../../domain/environment.ts';
import { simulateDeposit as deposit, simulateOrder as move } from '../../domain/orders.ts';
import { simulatePaymentAccount as setAccount } from '../../domain/paymentAccounts.ts';
import { actFor } from '../../domain/scope.ts';
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
