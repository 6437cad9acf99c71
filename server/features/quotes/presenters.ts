/** The quote exactly as `createQuote` returns it. */
import type { components } from '../../../generated/types/ramp.ts';
import type { QuoteRow } from './repository.ts';

type Quote = components['schemas']['Quote'];

export function presentQuote(row: QuoteRow): Quote {
  return {
    quoteId: row.id,
    organizationId: row.organization_id,
    type: row.type,
    sourceAsset: row.source_asset,
    targetAsset: row.target_asset,
    sourceAmount: row.source_amount,
    targetAmount: row.target_amount,
    rate: row.rate,
    fee: row.fee,
    ...(row.rail !== null ? { rail: row.rail } : {}),
    ...(row.payment_account_id !== null ? { paymentAccountId: row.payment_account_id } : {}),
    ...(row.wallet_address !== null ? { walletAddress: row.wallet_address } : {}),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** Which optional fields each route needs (true) or refuses (false). */
