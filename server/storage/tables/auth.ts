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
