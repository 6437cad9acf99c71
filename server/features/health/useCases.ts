/**
 * Readiness (getHealth): a process is ready when its database answers a query. An outage
 * fails that query, and the error handler answers it as any outage: the surface's 503 with
 * Retry-After (storage/health.ts).
 */
import type { components } from '../../../generated/types/ramp.ts';
import type { Services } from '../../services.ts';
import { ping } from '../../storage/database.ts';

export async function readiness(services: Pick<Services, 'storage'>): Promise<components['schemas']['Health']> {
  await ping(services.storage.db);
  return { status: 'ready' };
}
