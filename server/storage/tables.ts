/** The row types of every table, as Kysely sees them. Timestamps are ISO 8601 UTC text. */
import type { Generated } from 'kysely';

export interface OrganizationsTable {
  id: string;
  parent_id: string | null;
  type: 'business' | 'personal';
  display_name: string;
  /** Salt of this organization's API key hashes. */
  key_salt: string;
  kyb_status: string;
  kyb_approved_at: string | null;
  kyc_status: string;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
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
  type: string;
  /** The organization whose webhook subscriptions receive the event. */
  partner_id: string;
  organization_id: string;
  /** The JSON body exactly as delivered. */
  payload: string;
  occurred_at: string;
}

export interface Tables {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  events: EventsTable;
}

export type { Generated };
