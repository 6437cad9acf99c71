/** The service's own records: rate-limit windows, list counters, partners' sandbox clocks and the request log. */

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

/** One API request of a partner's keys (190-request-log, server/features/requestLog). */
export interface RequestLogTable {
  /** A UUID version 7: ordered as the answers were sent (features/requestLog/rules.ts `entryId`). */
  id: string;
  partner_id: string;
  organization_id: string;
  operation_id: string | null;
  method: string;
  path: string;
  surface: 'v1' | 'v2';
  status: number;
  duration_ms: number;
  /** Real time. */
  received_at: string;
  /** The partner's sandbox clock as the request arrived. */
  sandbox_time: string;
  key_prefix: string;
  /** The ids the request touched, separated by spaces. */
  object_ids: string;
  request_body: string | null;
  response_body: string | null;
  /** 1 when a body was cut at the log's limit. */
  truncated: number;
}

/** A partner made by `POST /sandbox/partners` (200-sandbox-partners, server/features/sandboxPartners). */
export interface SandboxPartnersTable {
  partner_id: string;
  /** The organization whose key made it: it may delete it. */
  made_by: string;
  /** Real time. */
  created_at: string;
  /** Real time of the last request with one of its keys (to the minute): the idle expiry counts from it. */
  last_request_at: string;
}
