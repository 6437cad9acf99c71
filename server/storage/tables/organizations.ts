/** Organizations (partners and their customers), their API keys and their verifications. */
import type { components } from '../../../generated/types/ramp.ts';

type Schemas = components['schemas'];

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
