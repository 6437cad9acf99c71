/** The sandbox's chain for v1 swaps (`v1SimulateSwap`): each one event of ./machine.ts. */
import type { Caller } from '../../organizations/scope.ts';
import { Problem } from '../../../shared/problems.ts';
import type { Services } from '../../../services.ts';
import type { V1SwapRow } from '../repository.ts';
import { newTransactionId } from '../../../shared/world.ts';
import { assertSwapSimulationApplies } from './machine.ts';
import { changeV1Swap, type V1SwapAction } from './useCases.ts';

/** Sandbox: one event of the chain or the service (`POST /sandbox/ramp/swap/{id}/simulate`). */
export function simulateV1Swap(services: Services, caller: Caller, id: string, action: V1SwapAction): Promise<V1SwapRow> {
  return changeV1Swap(services, caller, id, (swap) => {
    switch (action) {
      case 'expireTransaction':
        assertSwapSimulationApplies(swap.status, action);
        // Nothing a GET shows changes: no webhook, the same updatedAt.
        return { silent: { transaction_expired: 1 } };
      case 'sendConfirmed':
        if (swap.status === 'created' && swap.transaction_expired === 1) throw new Problem('conflict', 'The send transaction has expired; regenerate it first');
        return { event: 'sendConfirmed', changes: { send_transaction_hash: newTransactionId(swap.blockchain) } };
      case 'fundsReceived':
        // The distinct update some chains send: same status, one more swap_updated.
        return { event: 'fundsReceived' };
      case 'delivered':
        return { event: 'delivered', changes: { receive_transaction_hash: newTransactionId(swap.blockchain) } };
      case 'fail':
        return { event: 'fail' };
    }
  });
}
