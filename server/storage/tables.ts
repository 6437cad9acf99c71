/**
 * The row types of every table, as Kysely sees them. Timestamps are ISO 8601 UTC text. A
 * column holding one of the contract's enums is typed by that enum (generated/types), so a
 * row reads as the contract's value and a write of anything else fails `tsc`.
 */
import type { Generated } from 'kysely';
import type { components } from '../../generated/types/ramp.ts';

type Schemas = components['schemas'];
/** Events and subscriptions of both surfaces share their tables. */
type EventType = Schemas['WebhookEventType'] | Schemas['V1WebhookEventType'];

export interface OrganizationsTable {
  id: string;
  parent_id: string | null;
  type: Schemas['OrganizationType'];
  display_name: string;
  /** Salt of this organization's API key hashes. */
  key_salt: string;
  kyb_status: Schemas['VerificationStatus'];
  kyb_approved_at: string | null;
  kyc_status: Schemas['VerificationStatus'];
  /** Position among its parent's children (100-list-positions). */
  child_position: number | null;
  /** The partner at the top of its parent chain, whose sandbox clock it follows (140-sandbox-clocks); itself at the top. */
  top_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  /** Public id (uuid) to list and delete the key by; not part of the key. */
  id: string;
  /** SHA-256 of the key's `{key_id}` segment, which is secret and never stored. */
  lookup: string;
  organization_id: string;
  env: 'sand' | 'prod';
  hash: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface EventsTable {
  id: string;
  surface: 'v1' | 'v2';
  type: EventType;
  /** The organization whose webhook subscriptions receive the event. */
  partner_id: string;
  organization_id: string;
  /** The JSON body exactly as delivered. */
  payload: string;
  occurred_at: string;
  /** Its place in its partner's event feed (migration 130; null only for a row written behind the repositories' back). */
  position: number | null;
  /** What it is about: an order, payment account, swap, bank account or organization id (migration 130). */
  subject_id: string | null;
}

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

export interface WebhookSubscriptionsTable {
  id: string;
  /** v1 and v2 subscriptions are apart: each receives its own surface's events only. */
  surface: 'v1' | 'v2';
  /** The key's organization (the partner): it receives its own and its customers' events. */
  organization_id: string;
  event_type: EventType;
  url: string;
  /** base64url of the 32-byte HMAC key; shown once, kept to sign deliveries. */
  secret: string;
  /** Position among the organization's subscriptions of this surface (100-list-positions). */
  position: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  subscription_id: string;
  event_id: string;
  status: Schemas['WebhookDeliveryStatus'];
  /** Attempts claimed so far (1 to 3). */
  attempts: number;
  /** When the next attempt is due (while one is in flight: when its lease ends); null once done. */
  next_attempt_at: string | null;
  /** Position among the subscription's deliveries (100-list-positions). */
  position: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  number: number;
  started_at: string;
  finished_at: string | null;
  status_code: number | null;
  error: string | null;
  /** The first bytes of the receiver's answer, as text (migration 130). */
  response_excerpt: string | null;
}

/** Partner sign-in (migration 050): issuers, remembered JWT ids, sign-ins, token hashes. */
export interface JwtIssuersTable {
  organization_id: string;
  issuer: string;
  /** JSON of an inline JWKS, or null when `jwks_uri` is set. */
  jwks: string | null;
  jwks_uri: string | null;
  /** The JWKS last fetched from `jwks_uri` (JSON) and when. */
  fetched_jwks: string | null;
  fetched_at: string | null;
  /** Last fetch attempt, successful or not: refetches are at most one per 30 s across processes. */
  fetch_attempted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AuthAssertionsTable {
  issuer: string;
  /** `jti:<value>` or `nonce:<value>`. */
  value: string;
  expires_at: string;
}

export interface AuthGrantsTable {
  id: string;
  partner_id: string;
  issuer: string;
  subject: string;
  /** The customer organization of a UUID `sub`; null for a non-UUID one. */
  customer_id: string | null;
  email: string;
  name: string;
  picture: string | null;
  /** Space-separated scopes. */
  scope: string;
  created_at: string;
  revoked_at: string | null;
}

export interface AuthTokensTable {
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  hash: string;
  kind: 'access' | 'refresh' | 'session';
  grant_id: string;
  /** Sessions: where the app sends the person back to. */
  return_url: string | null;
  /** Sessions: the only origin that may frame its app pages (the launch's `origin`); null: none may. */
  frame_ancestor: string | null;
  created_at: string;
  expires_at: string;
  /** Refresh tokens: when it was consumed. */
  used_at: string | null;
}

export interface VerificationsTable {
  organization_id: string;
  /** `kyc` (a person) or `kyb` (a business); the status is on the organization row. */
  kind: 'kyc' | 'kyb';
  /** 1 when the customer must fix or add something (`userMessage` says what). */
  needs_work: number;
  user_message: string | null;
  /** v1 `updateReason`: why the review sent the submission back or denied it. */
  update_reason: string | null;
  /** JSON: the requirements the current verification stage added (KycRequirement[]). */
  requirements: string | null;
  /** JSON: the last accepted submission, as sent. */
  submission: string | null;
  submission_surface: 'v1' | 'v2' | null;
  submitted_at: string | null;
  updated_at: string;
}

/** One fixed window of one rate-limit bucket (`reads:{organizationId}`); old windows are deleted as new ones open. */
export interface RateLimitWindowsTable {
  bucket: string;
  /** Unix seconds at which the window opened. */
  window_start: number;
  count: number;
}

/** Each list's count and latest created_at (100-list-positions, storage/positions.ts). */
export interface ListCountersTable {
  list: string;
  scope: string;
  count: number;
  last_at: string;
}

/** A partner's sandbox clock (130-sandbox-clocks, server/features/clock); no row: running on real time. */
export interface SandboxClocksTable {
  partner_id: string;
  /** The instant it stands at while frozen; null while it runs. */
  frozen_at: string | null;
  /** While running: its time minus real time, in milliseconds. */
  offset_ms: number;
  updated_at: string;
}

export interface Tables {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  events: EventsTable;
  verifications: VerificationsTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  payment_accounts: PaymentAccountsTable;
  wallets: WalletsTable;
  quotes: QuotesTable;
  orders: OrdersTable;
  v1_wallets: V1WalletsTable;
  v1_bank_accounts: V1BankAccountsTable;
  v1_orders: V1OrdersTable;
  v1_swaps: V1SwapsTable;
  v1_onboarding_links: V1OnboardingLinksTable;
  jwt_issuers: JwtIssuersTable;
  auth_assertions: AuthAssertionsTable;
  auth_grants: AuthGrantsTable;
  auth_tokens: AuthTokensTable;
  rate_limit_windows: RateLimitWindowsTable;
  list_counters: ListCountersTable;
  sandbox_clocks: SandboxClocksTable;
}

export type { Generated };
