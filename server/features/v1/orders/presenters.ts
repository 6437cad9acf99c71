/** The v1 order exactly as `v1GetOrder` returns it and `order_updated` carries it. */
import type { components } from '../../../../generated/types/ramp.ts';
import { present } from '../common.ts';
import type { V1OrderRow } from '../repository.ts';

type Schemas = components['schemas'];

export function presentV1Order(row: V1OrderRow): Schemas['V1Order'] {
  const awaitingApproval = row.status === 'created' && row.approval_message_id && row.approval_message && row.approval_summary;
  return present<Schemas['V1Order']>({
    id: row.id,
    customerId: row.customer_id,
    type: row.type,
    status: row.status,
    sourceAmount: row.source_amount,
    targetAmount: row.target_amount,
    token: row.token,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    depositClabe: row.type === 'onramp' ? row.deposit_clabe : null,
    confirmedTxSignature: row.type === 'onramp' ? row.confirmed_tx_signature : null,
    burnTransaction: row.type === 'offramp' ? row.burn_transaction : null,
    approval: awaitingApproval
      ? { approvalMessageId: row.approval_message_id!, approvalMessage: row.approval_message!, summary: row.approval_summary! }
      : null,
  });
}
