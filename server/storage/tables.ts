/**
 * The row types of every table, as Kysely sees them. Timestamps are ISO 8601 UTC text. A
 * column holding one of the contract's enums is typed by that enum (generated/types), so a
 * row reads as the contract's value and a write of anything else fails `tsc`.
 *
 * The row types are written by feature area in tables/ and re-exported here, the one place
 * the rest of the server imports them from; `Tables` below is the whole database.
 */
import type { Generated } from 'kysely';
import type { AuthAssertionsTable, AuthGrantsTable, AuthTokensTable, JwtIssuersTable } from './tables/auth.ts';
import type { ListCountersTable, RateLimitWindowsTable, RequestLogTable, SandboxClocksTable, SandboxPartnersTable } from './tables/bookkeeping.ts';
import type { OrdersTable, PaymentAccountsTable, QuotesTable, WalletsTable } from './tables/money.ts';
import type { ApiKeysTable, OrganizationsTable, VerificationsTable } from './tables/organizations.ts';
import type { V1BankAccountsTable, V1OnboardingLinksTable, V1OrdersTable, V1SwapsTable, V1WalletsTable } from './tables/v1.ts';
import type { EventsTable, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookSubscriptionsTable } from './tables/webhooks.ts';

export type * from './tables/auth.ts';
export type * from './tables/bookkeeping.ts';
export type * from './tables/money.ts';
export type * from './tables/organizations.ts';
export type * from './tables/v1.ts';
export type * from './tables/webhooks.ts';

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
  request_log: RequestLogTable;
  sandbox_partners: SandboxPartnersTable;
}

export type { Generated };
