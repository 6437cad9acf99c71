/** The sandbox's bank and chain for v1 orders (`v1ConfirmFiatReceived`, `v1SimulateOrder`): each one event of ./machine.ts. */
import type { Caller } from '../../organizations/scope.ts';
import { Problem } from '../../../shared/problems.ts';
import type { Services } from '../../../services.ts';
import type { V1OrderRow } from '../repository.ts';
import { positiveAmount } from '../common.ts';
import { changeV1Order, deliverTokens, lockOwned, seconds, type V1OrderAction } from './useCases.ts';
import { v1OrderSimulationApplies } from './machine.ts';

/**
 * Sandbox: the MXN deposit of an onramp arrived. The ordered amount funds it (tokens follow
 * on their own after `v1DeliverySeconds`); any other amount funds it and then refunds it,
 * two events.
 */
export function confirmV1FiatReceived(services: Services, caller: Caller, body: { orderId: string; amount?: string }): Promise<V1OrderRow> {
  const received = body.amount === undefined ? undefined : positiveAmount(body.amount, 'amount');
  return changeV1Order(services, (tx) => lockOwned(services, tx, caller, body.orderId), (order, now) => {
    if (!v1OrderSimulationApplies(order.type, order.status, 'fiatReceived')) throw new Problem('conflict', 'Order is not an onramp awaiting its deposit');
    const matches = received === undefined || received.equals(order.source_amount);
    if (matches) return { steps: [{ event: 'depositReceived', changes: { due_at: seconds(now, services.config.v1DeliverySeconds) } }] };
    // The refund follows the funding: a millisecond later, so the two events keep their order.
    return { steps: [{ event: 'depositReceived', changes: { due_at: null } }, { event: 'depositMismatch', laterMs: 1 }] };
  });
}

/** Sandbox: one event of the chain, the bank or the service (`POST /sandbox/ramp/order/{id}/simulate`). */
export function simulateV1Order(services: Services, caller: Caller, id: string, action: V1OrderAction): Promise<V1OrderRow> {
  return changeV1Order(services, (tx) => lockOwned(services, tx, caller, id), (order, now) => {
    const message = `Action ${action} does not apply to an ${order.type} order in status ${order.status}`;
    switch (action) {
      case 'expireTransaction':
        if (!v1OrderSimulationApplies(order.type, order.status, action)) throw new Problem('conflict', message);
        // Nothing a GET shows changes, so no webhook and the same updatedAt.
        return { silent: { transaction_expired: 1 } };
      case 'burnConfirmed':
        if (order.type === 'offramp' && order.status === 'created' && order.transaction_expired === 1) {
          throw new Problem('conflict', 'The burn transaction has expired; regenerate it first');
        }
        return { steps: [{ event: 'burnConfirmed', message }] };
      case 'tokensDelivered':
        return { steps: [deliverTokens(order, message)] };
      case 'fiatSent':
        return { steps: [{ event: 'fiatSent', changes: { due_at: seconds(now, services.config.v1ReversalWindowSeconds) }, message }] };
      case 'reversalWindowPassed':
        return { steps: [{ event: 'reversalWindowPassed', changes: { due_at: null }, message }] };
      case 'fail':
        return { steps: [{ event: 'fail', changes: { due_at: null }, message }] };
    }
  });
}
