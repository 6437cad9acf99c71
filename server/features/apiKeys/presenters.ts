/** API keys as `listApiKeys` returns them. */
import type { components } from '../../../generated/types/ramp.ts';
import type { ApiKeyRow } from './repository.ts';

/** A key as listed: its first 16 characters only. */
export function presentApiKey(row: ApiKeyRow): components['schemas']['ActiveApiKey'] {
  return {
    id: row.id,
    organizationId: row.organization_id,
    keyPrefix: row.prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}
