/** Reading the sandbox request log (listSandboxRequests): a partner's entries, newest first, filtered. */
import type { components } from '../../../generated/types/ramp.ts';
import type { Services } from '../../services.ts';
import { pageMeta, type PageRequest } from '../../shared/pagination.ts';
import type { Caller } from '../organizations/scope.ts';
import { topOf } from '../organizations/repository.ts';
import { requestLogRepository, type RequestLogRow } from './repository.ts';
import { postedReads, requestLogLimits } from './rules.ts';

type Schemas = components['schemas'];

export interface RequestLogQuery {
  status?: string | undefined;
  operationId?: string | undefined;
  organizationId?: string | undefined;
  objectId?: string | undefined;
  reads?: boolean | undefined;
}

export function presentRequest(row: RequestLogRow): Schemas['SandboxRequest'] {
  return {
    id: row.id,
    method: row.method,
    path: row.path,
    operationId: row.operation_id,
    surface: row.surface,
    status: row.status,
    durationMs: row.duration_ms,
    receivedAt: row.received_at,
    sandboxTime: row.sandbox_time,
    organizationId: row.organization_id,
    keyPrefix: row.key_prefix,
    objectIds: row.object_ids === '' ? [] : row.object_ids.split(' '),
    requestBody: row.request_body,
    responseBody: row.response_body,
    truncated: row.truncated === 1,
  };
}

/**
 * The log of the key's partner (a customer's key would read only its own organization's
 * requests; customers hold no keys today). Entries past the age limit are not shown even
 * before a write deletes them.
 */
export async function readRequests(services: Pick<Services, 'storage' | 'realClock' | 'contract'>, caller: Caller, query: RequestLogQuery, page: PageRequest): Promise<Schemas['SandboxRequestPage']> {
  const since = new Date(services.realClock.now().getTime() - requestLogLimits.maxAgeMs).toISOString();
  const ownOnly = caller.organization.parent_id !== null ? caller.organization.id : undefined;
  const { reads, ...rest } = query;
  const filter = {
    ...rest,
    organizationId: ownOnly ?? query.organizationId?.toLowerCase(),
    objectId: query.objectId?.toLowerCase(),
    withoutReads: reads === false ? { postedReads: postedReads(services.contract) } : undefined,
    since,
  };
  const { items, total } = await requestLogRepository(services.storage.db).page(topOf(caller.organization), filter, page);
  return { items: items.map(presentRequest), ...pageMeta(page, total) };
}
