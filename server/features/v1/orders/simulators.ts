/** The sandbox's bank and chain for v1 orders (`v1ConfirmFiatReceived`, `v1SimulateOrder`): each one event of ./machine.ts. */
import type { Caller } from '../../organizations/scope.ts';
import { Problem } from '../../../shared/problems.ts';
import type { Services } from '../../../services.ts';
import { v1OrdersRepository, type V1OrderRow } from '../repository.ts';
import { positiveAmount } from '../common.ts';
import { deliverTokens, lockOwned, move, seconds, type V1OrderAction } from './useCases.ts';
import { v1OrderSimulationApplies } from './machine.ts';

/**
 * Sandbox: the MXN deposit of an onramp arrived. The ordered amount funds it (tokens follow
 * on their own after `v1DeliverySeconds`); any other amount funds it and then refunds it,
 * two events.
 */
export async function confirmV1FiatReceived(services: Services, caller: Caller, body: { orderId: string; amount?: string }): Promise<V1OrderRow> {
  const received = body.amount === undefined ? undefined : positiveAmount(body.amount, 'amount');
  return services.storage.db.transaction().execute(async (tx) => {
    const order = await lockOwned(services, tx, caller, body.orderId);
    if (!v1OrderSimulationApplies(order.type, order.status, 'fiatReceived')) throw new Problem('conflict', 'Order is not an onramp awaiting its deposit');
    const matches = received === undefined || received.equals(order.source_amount);
    const now = services.clock.now();
    const funded = await move(services, tx, order, 'depositReceived', { due_at: matches ? seconds(now, services.config.v1DeliverySeconds) : null });
    // The refund follows the funding: a millisecond later, so the two events keep their order.
    return matches ? funded : move(services, tx, funded, 'depositMismatch', {}, { at: new Date(now.getTime() + 1) });
  });
}

/** Sandbox: one event of the chain, the bank or the service (`POST /sandbox/ramp/order/{id}/simulate`). */
export async function simulateV1Order(services: Services, caller: Caller, id: string, action: V1OrderAction): Promise<V1OrderRow> {
  return services.storage.db.transaction().execute(async (tx) => {
    const order = await lockOwned(services, tx, caller, id);
    const notApplicable = `Action ${action} does not apply to an ${order.type} order in status ${order.status}`;
    const now = services.clock.now();
    switch (action) {
      case 'expireTransaction': {
        if (!v1OrderSimulationApplies(order.type, order.status, action)) throw new Problem('conflict', notApplicable);
        // Nothing a GET shows changes, so no webhook and the same updatedAt.
        await v1OrdersRepository(tx).update(order.id, { transaction_expired: 1 });
        return { ...order, transaction_expired: 1 };
      }
      case 'burnConfirmed':
        if (order.type === 'offramp' && order.status === 'created' && order.transaction_expired === 1) {
          throw new Problem('conflict', 'The burn transaction has expired; regenerate it first');
        }
        return move(services, tx, order, 'burnConfirmed', {}, { message: notApplicable });
      case 'tokensDelivered':
        return deliverTokens(services, tx, order, notApplicable);
      case 'fiatSent':
        return move(services, tx, order, 'fiatSent', { due_at: seconds(now, services.config.v1ReversalWindowSeconds) }, { message: notApplicable });
      case 'reversalWindowPassed':
        return move(services, tx, order, 'reversalWindowPassed', { due_at: null }, { message: notApplicable });
      case 'fail':
        return move(services, tx, order, 'fail', { due_at: null }, { message: notApplicable });
    }
  });
}
