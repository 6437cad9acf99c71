/**
 * What the rail does on its own: it finishes the verification of a due account. Declared
 * here as the payment accounts' timer; applied one account at a time by the sandbox clock's
 * mechanism (features/clock/timers.ts), from the background job server/jobs.ts gathers and
 * from `POST /sandbox/clock/advance` alike.
 */
import type { Services, Timer } from '../../services.ts';
import { moveDirections, type Rails } from './machine.ts';
import { changePaymentAccount } from './useCases.ts';
import { paymentAccountsRepository, type PaymentAccountRow } from './repository.ts';

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

export const paymentAccountsTimers: Timer[] = [
  // The rail verifies a payment account (verificationDelayMs).
  {
    job: 'verifyPaymentAccounts',
    async due(db, scope, until, limit) {
      const rows = await paymentAccountsRepository(db).dueForVerification(until, limit, scope);
      return rows.map((row) => ({ kind: 'paymentAccountReady' as const, id: row.id, organizationId: row.organization_id, dueAt: row.verify_at! }));
    },
    apply: (services, item) => applyAccountVerification(services, item.organizationId, item.id),
  },
];
