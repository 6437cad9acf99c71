/**
 * What the rail does on its own: it finishes the verification of a due account. Applied one
 * account at a time by the sandbox clock's timers (features/clock/timers.ts), from the
 * background job registered in server/jobs.ts and from `POST /sandbox/clock/advance` alike.
 */
import type { Services } from '../../services.ts';
import { moveDirections, type Rails } from './machine.ts';
import { changePaymentAccount } from './useCases.ts';
import type { PaymentAccountRow } from './repository.ts';

/**
 * The rail finishing its verification of a due account: its pending directions become
 * ready. True when the account changed.
 */
export async function applyAccountVerification(services: Services, organizationId: string, id: string): Promise<boolean> {
  let before: PaymentAccountRow | undefined;
  const after = await changePaymentAccount(
    services,
    organizationId,
    id,
    (row, now) => {
      // Another process got there first, or the account changed since.
      if (row.verify_at === null || row.verify_at > now.toISOString()) return undefined;
      before = row;
      return { rails: moveDirections(JSON.parse(row.rails) as Rails, 'verify'), disabled: row.status === 'disabled', verifyAt: null };
    },
    'nothing',
  );
  return before !== undefined && (after!.rails !== before.rails || after!.status !== before.status);
}
