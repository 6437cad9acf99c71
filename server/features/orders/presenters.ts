/** The v2 order exactly as `getOrder` returns it and `orderUpdated` carries it. */
import type { components } from '../../../generated/types/ramp.ts';
import type { OrderRow } from './repository.ts';

type Schemas = components['schemas'];
type Order = Schemas['Order'];
type FundingInstructions = Schemas['FundingInstructions'];

export function presentOrder(row: OrderRow): Order {
  const pendingAuthorization = row.status === 'created' && row.authorization_id !== null;
  return {
    id: row.id,
    status: row.status,
    organizationId: row.organization_id,
    quoteId: row.quote_id,
    type: row.type,
    sourceAsset: row.source_asset,
    targetAsset: row.target_asset,
    sourceAmount: row.source_amount,
    targetAmount: row.target_amount,
    ...(row.payment_account_id !== null ? { paymentAccountId: row.payment_account_id } : {}),
    ...(row.wallet_address !== null ? { walletAddress: row.wallet_address } : {}),
    ...(row.funding_instructions !== null ? { fundingInstructions: JSON.parse(row.funding_instructions) as FundingInstructions } : {}),
    ...(row.status === 'failed' && row.failure_code !== null ? { failure: { code: row.failure_code, message: row.failure_message ?? row.failure_code } } : {}),
    ...(pendingAuthorization
      ? { authorization: { id: row.authorization_id!, method: { message: row.authorization_message! }, expiresAt: row.authorization_expires_at! } }
      : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
