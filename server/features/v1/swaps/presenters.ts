/** The v1 swap exactly as `v1GetSwap` returns it and `swap_updated` carries it. */
import type { components } from '../../../../generated/types/ramp.ts';
import { present } from '../common.ts';
import type { V1SwapRow } from '../repository.ts';

type Schemas = components['schemas'];

export function presentV1Swap(row: V1SwapRow): Schemas['V1Swap'] {
  return present<Schemas['V1Swap']>({
    id: row.id,
    customerId: row.customer_id,
    status: row.status,
    sendTransaction: row.send_transaction,
    sendTransactionHash: row.send_transaction_hash,
    receiveTransactionHash: row.receive_transaction_hash,
    sourceToken: row.source_token,
    targetToken: row.target_token,
    sourceAmount: row.source_amount,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}
