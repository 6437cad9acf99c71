/** The v1 money tables (030-money-v1): wallets, bank accounts, orders, swaps and onboarding links. */
import type { components } from '../../../generated/types/ramp.ts';

type Schemas = components['schemas'];

/** v1 wallets (030-money-v1). `partner_id` is the customer's parent, for partner-wide lists. */
export interface V1WalletsTable {
  id: string;
  partner_id: string;
  customer_id: string;
  address: string;
  blockchain: Schemas['V1Blockchain'];
  custody: Schemas['V1WalletCustody'];
  signer_public_key: string | null;
  /** Positions in the partner's and the customer's lists (100-list-positions). */
  partner_position: number | null;
  customer_position: number | null;
  created_at: string;
  updated_at: string;
}

export interface V1BankAccountsTable {
  id: string;
  partner_id: string;
  customer_id: string;
  clabe: string;
  account_label: string;
  currency: Schemas['V1BankAccount']['currency'];
  role: Schemas['V1BankAccount']['role'];
  status: Schemas['V1BankAccountStatus'];
  /** 0 or 1 (one type on both engines). */
  compliant: number;
  /** Positions in the partner's and the customer's lists (100-list-positions). */
  partner_position: number | null;
  customer_position: number | null;
  created_at: string;
  updated_at: string;
}

export interface V1OrdersTable {
  id: string;
  partner_id: string;
  customer_id: string;
  type: Schemas['V1OrderType'];
  status: Schemas['V1OrderStatus'];
  source_amount: string;
  target_amount: string | null;
  token: Schemas['V1Token'];
  blockchain: Schemas['V1Blockchain'];
  wallet_id: string | null;
  wallet_address: string;
  bank_account_id: string | null;
  deposit_clabe: string | null;
  confirmed_tx_signature: string | null;
  burn_transaction: string | null;
  /** 0 or 1: the burn transaction expired before it was signed. */
  transaction_expired: number;
  approval_message_id: string | null;
  approval_message: string | null;
  approval_summary: string | null;
  /** When the next automatic step (token delivery, end of the reversal window) is due. */
  due_at: string | null;
  /** Positions in the partner's and the customer's lists (100-list-positions). */
  partner_position: number | null;
  customer_position: number | null;
  created_at: string;
  updated_at: string;
}

export interface V1SwapsTable {
  id: string;
  partner_id: string;
  customer_id: string;
  wallet_id: string;
  blockchain: Schemas['V1Blockchain'];
  status: Schemas['V1SwapStatus'];
  source_token: Schemas['V1Token'];
  target_token: Schemas['V1Token'];
  source_amount: string;
  send_transaction: string;
  transaction_expired: number;
  send_transaction_hash: string | null;
  receive_transaction_hash: string | null;
  /** Positions in the partner's and the customer's lists (150-quote-and-swap-lists). */
  partner_position: number | null;
  customer_position: number | null;
  created_at: string;
  updated_at: string;
}

/** Presigned onboarding URLs (deprecated v1 onboarding); only a hash of the signature is kept. */
export interface V1OnboardingLinksTable {
  id: string;
  partner_id: string;
  customer_id: string;
  signature_hash: string;
  expires_at: string;
  created_at: string;
}
