/**
 * The v1 objects exactly as their GET returns them, and as their webhooks carry them.
 * Fields that do not apply are omitted, never null (seed part 2, "v1 order, swap, wallet").
 */
import type { components } from '../../../generated/types/ramp.ts';
import type { V1BankAccountRow, V1OrderRow, V1SwapRow, V1WalletRow } from '../../storage/v1Money.ts';

type Schemas = components['schemas'];

const present = <T extends object>(fields: { [K in keyof T]: T[K] | null | undefined }): T =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined)) as T;

export function presentV1Order(row: V1OrderRow): Schemas['V1Order'] {
  const awaitingApproval = row.status === 'created' && row.approval_message_id && row.approval_message && row.approval_summary;
  return present<Schemas['V1Order']>({
    id: row.id,
    customerId: row.customer_id,
    type: row.type,
    status: row.status as Schemas['V1OrderStatus'],
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

export function presentV1Swap(row: V1SwapRow): Schemas['V1Swap'] {
  return present<Schemas['V1Swap']>({
    id: row.id,
    customerId: row.customer_id,
    status: row.status as Schemas['V1SwapStatus'],
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

export function presentV1Wallet(row: V1WalletRow): Schemas['V1Wallet'] {
  return present<Schemas['V1Wallet']>({
    id: row.id,
    customerId: row.customer_id,
    address: row.address,
    blockchain: row.blockchain,
    custody: row.custody,
    signerPublicKey: row.custody === 'embedded' ? row.signer_public_key : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

export function presentV1BankAccount(row: V1BankAccountRow): Schemas['V1BankAccount'] {
  return {
    accountLabel: row.account_label,
    compliant: row.compliant === 1,
    currency: row.currency as Schemas['V1BankAccount']['currency'],
    internalAccountId: row.id,
    organizationId: row.customer_id,
    role: row.role,
    status: row.status as Schemas['V1BankAccountStatus'],
    clabe: row.clabe,
    createdAt: row.created_at,
  };
}
