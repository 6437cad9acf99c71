/** The v2 money tables: payment accounts, wallets, quotes and orders. */
import type { components } from '../../../generated/types/ramp.ts';

type Schemas = components['schemas'];

export interface PaymentAccountsTable {
  id: string;
  organization_id: string;
  kind: Schemas['PaymentAccountKind'];
  clabe: string;
  memo: string | null;
  account_holder_name: string;
  tax_id: string;
  status: Schemas['PaymentAccountStatus'];
  /** JSON: the rails map as the contract shows it (`{"spei": {"destination": "pending", ...}}`). */
  rails: string;
  /** When the rail's verification of pending directions completes (a job makes them ready). */
  verify_at: string | null;
  /** Position in its list (100-list-positions, storage/positions.ts). */
  position: number | null;
  created_at: string;
  updated_at: string;
}

export interface WalletsTable {
  id: string;
  organization_id: string;
  address: string;
  blockchain: Schemas['Blockchain'];
  custody: Schemas['WalletCustody'];
  signer_public_key: string | null;
  /** Position in its list (100-list-positions, storage/positions.ts). */
  position: number | null;
  created_at: string;
}

export interface QuotesTable {
  id: string;
  organization_id: string;
  type: Schemas['OrderType'];
  source_asset: Schemas['Asset'];
  target_asset: Schemas['Asset'];
  source_amount: string;
  target_amount: string;
  rate: string;
  fee: string;
  rail: Schemas['Rail'] | null;
  payment_account_id: string | null;
  wallet_address: string | null;
  /** Position in the organization's list (150-quote-and-swap-lists, storage/positions.ts). */
  position: number | null;
  created_at: string;
  expires_at: string;
}

export interface OrdersTable {
  id: string;
  organization_id: string;
  quote_id: string;
  type: Schemas['OrderType'];
  status: Schemas['OrderStatus'];
  source_asset: string;
  target_asset: string;
  source_amount: string;
  target_amount: string;
  payment_account_id: string | null;
  wallet_address: string | null;
  blockchain: Schemas['Blockchain'] | null;
  /** JSON FundingInstructions, as the order shows them. */
  funding_instructions: string | null;
  /** A `created` order still unfunded then is canceled. */
  funding_deadline: string | null;
  /** An embedded wallet's authorization: pending while `created`; kept once its expiry canceled the order (orders/useCases.ts statusChange). */
  authorization_id: string | null;
  authorization_message: string | null;
  authorization_expires_at: string | null;
  failure_code: Schemas['OrderFailure']['code'] | null;
  failure_message: string | null;
  /** JSON ClaimPreparation of a claimable order. */
  claim: string | null;
  /** When a funded order completes on its own (a job). */
  settle_at: string | null;
  /** The organization itself at the top, else its parent: whose GET /orders lists it besides its own (100-list-positions). */
  partner_id: string | null;
  partner_position: number | null;
  /** Position in its own organization's GET /orders, when that organization has a parent. */
  cover_position: number | null;
  /** Position in GET /orders?organizationId. */
  organization_position: number | null;
  /** The Order as GET /orders lists it, JSON checked against the contract when written (160-stored-order-bodies). */
  body: string | null;
  /** The contract and presenter `body` was made by (features/orders/presenters.ts `orderBodyTag`). */
  body_tag: string | null;
  created_at: string;
  updated_at: string;
}
