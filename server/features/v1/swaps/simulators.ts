/** The sandbox's chain for v1 swaps (`v1SimulateSwap`): each one event of ./machine.ts. */
import type { Caller } from '../../organizations/scope.ts';
import { Problem } from '../../../shared/problems.ts';
import type { Services } from '../../../services.ts';
import { v1SwapsRepository, type V1SwapRow } from '../repository.ts';
import { newTransactionId } from '../../../shared/world.ts';
import { assertSwapSimulationApplies } from './machine.ts';
import { lockOwned, move, update, type V1SwapAction } from './useCases.ts';

/** Sandbox: one event of the chain or the service (`POST /sandbox/ramp/swap/{id}/simulate`). */
export async function simulateV1Swap(services: Services, caller: Caller, id: string, action: V1SwapAction): Promise<V1SwapRow> {
  return services.storage.db.transaction().execute(async (tx) => {
    const swap = await lockOwned(services, tx, caller, id);
    switch (action) {
      case 'expireTransaction':
        assertSwapSimulationApplies(swap.status, action);
        // Nothing a GET shows changes: no webhook, the same updatedAt.
        await v1SwapsRepository(tx).update(swap.id, { transaction_expired: 1 });
        return { ...swap, transaction_expired: 1 };
      case 'sendConfirmed':
        if (swap.status === 'created' && swap.transaction_expired === 1) throw new Problem('conflict', 'The send transaction has expired; regenerate it first');
        return move(services, tx, swap, 'sendConfirmed', { send_transaction_hash: newTransactionId(swap.blockchain) });
      case 'fundsReceived':
        // The distinct update some chains send: same status, one more swap_updated.
        assertSwapSimulationApplies(swap.status, action);
        return update(services, tx, swap, {});
      case 'delivered':
        return move(services, tx, swap, 'delivered', { receive_transaction_hash: newTransactionId(swap.blockchain) });
      case 'fail':
        return move(services, tx, swap, 'fail');
    }
  });
}
