/** The sandbox's bank and chain for v2 orders (`simulateDeposit`, `simulateOrder`): each a move of ./machine.ts through changeOrder. */
import { Decimal } from 'decimal.js';
import type { components } from '../../../generated/types/ramp.ts';
import { Problem, validationError } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import type { OrganizationRow } from '../organizations/repository.ts';
import { presentOrder } from './presenters.ts';
import { orderSimulationServes, orderSimulations } from './machine.ts';
import { changeOrder, fundingInstructions, fundingWindowMs, settleDelayMs, statusChange, type Order } from './useCases.ts';

type Schemas = components['schemas'];

/**
 * Sandbox: the SPEI deposit of an onramp. The quoted amount funds it (and, unless told
 * otherwise, it completes on its own shortly after); any other amount is returned.
 */
export async function simulateDeposit(
  services: Services,
  organization: OrganizationRow,
  id: string,
  request: { amount?: string; autoComplete?: boolean },
): Promise<Order> {
  if (request.amount !== undefined && new Decimal(request.amount).lte(0)) throw new Problem('invalid-request', 'amount must be greater than 0.');
  const row = await changeOrder(services, organization.id, id, (order, now) => {
    if (!orderSimulationServes(order.type, 'deposit')) throw new Problem('unsupported', `Order ${id} is funded with ${order.source_asset}, not by a fiat deposit; use the order simulator's confirmSourceFunds.`);
    if (!orderSimulations.deposit.from.includes(order.status)) throw new Problem('conflict', `Order ${id} is ${order.status}; a deposit can be simulated only while it is created.`);
    const matches = request.amount === undefined || new Decimal(request.amount).eq(order.source_amount);
    if (!matches) return statusChange(order, 'depositMismatch');
    const settleAt = request.autoComplete === false ? null : new Date(now.getTime() + settleDelayMs).toISOString();
    return statusChange(order, 'deposit', { settle_at: settleAt });
  });
  return presentOrder(row);
}

export type SimulateOrderRequest = Schemas['SimulateOrderRequest'];

const defaultFailure = { code: 'simulatedFailure', message: 'Failed by the sandbox simulator.' };

/** Sandbox: one move of an order, as the service would make it (see SimulateOrderRequest). */
export async function simulateOrder(services: Services, organization: OrganizationRow, id: string, request: SimulateOrderRequest): Promise<Order> {
  if (request.failure !== undefined && request.action !== 'fail') {
    throw validationError([{ pointer: '/failure', detail: 'is allowed only with the fail action' }]);
  }
  const row = await changeOrder(services, organization.id, id, (order, now) => {
    switch (request.action) {
      case 'confirmSourceFunds':
        if (!orderSimulationServes(order.type, 'confirmSourceFunds')) throw new Problem('conflict', `Order ${id} is funded by a fiat deposit; simulate it with the deposit simulator.`);
        if (order.status === 'created' && order.authorization_id !== null) {
          throw new Problem('conflict', `Order ${id} spends from an embedded wallet; its funds move once the authorization is signed.`);
        }
        return statusChange(order, 'confirmSourceFunds');
      case 'fail': {
        const failure = request.failure ?? defaultFailure;
        return statusChange(order, 'fail', { failure_code: failure.code, failure_message: failure.message });
      }
      case 'replaceFundingInstructions': {
        if (!orderSimulations.replaceFundingInstructions.from.includes(order.status)) throw new Problem('conflict', `replaceFundingInstructions is not allowed from ${order.status}; it needs a created order.`);
        if (order.funding_instructions === null) throw new Problem('conflict', `Order ${id} has no funding instructions to replace; it waits for an authorization.`);
        const deadline = new Date(now.getTime() + fundingWindowMs);
        return { funding_instructions: JSON.stringify(fundingInstructions(order, deadline)), funding_deadline: deadline.toISOString() };
      }
      default:
        return statusChange(order, request.action);
    }
  });
  return presentOrder(row);
}
