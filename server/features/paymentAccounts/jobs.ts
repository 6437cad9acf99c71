/**
 * What the rail does on its own: it finishes the verification of a due account. Applied one
 * account at a time by the sandbox clock's timers (features/clock/timers.ts), from the
 * background job registered in server/jobs.ts and from `POST /sandbox/clock/advance` alike.
 */
import type { Services } from '../../services.ts';
import { paymentAccountsRepository } from './repository.ts';
import { mapDirections, type Rails } from './machine.ts';
import { save } from './useCases.ts';

/**
 * The rail finishing its verification of a due account: its pending directions become
 * ready. True when the account changed.
 */
export async function applyAccountVerification(services: Services, organizationId: string, id: string): Promise<boolean> {
  const { storage } = services;
  return storage.db.transaction().execute(async (tx) => {
    const row = await paymentAccountsRepository(tx, storage.engine).findForUpdate(organizationId, id);
    // Another process got there first, or the account changed since.
    if (!row || row.verify_at === null || row.verify_at > services.clock.now().toISOString()) return false;
    const rails = mapDirections(JSON.parse(row.rails) as Rails, (s) => (s === 'pending' ? 'ready' : s));
    const after = await save(services, tx, row, { rails, disabled: row.status === 'disabled', verifyAt: null });
    return after.rails !== row.rails || after.status !== row.status;
  });
}
