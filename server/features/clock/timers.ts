/**
 * Every timer of the sandbox that changes an object by itself, and the one mechanism that
 * applies them: the background jobs for what is due "now" on each running clock, and
 * `POST /sandbox/clock/advance` for what is due up to an instant on one partner's clock.
 *
 * A timer is a due query over its objects' due-at column (restricted to the partners a
 * scope names, repository.ts `followsClock`) and the domain's function that applies one due
 * object: it locks the object, checks again that it is still due at the clock it is given
 * and applies the change with its event, in one transaction. So a job, an advance and a
 * second process never apply one change twice, and the same code path runs either way.
 *
 * Timers that change nothing by themselves are not here: an expired quote or claim is
 * refused or replaced when used, the v1 onboarding URL when redeemed; they follow the
 * partner's clock through Services.clock.
 */
import type { components } from '../../../generated/types/ramp.ts';
import type { Services } from '../../services.ts';
import type { Db } from '../../storage/database.ts';
import { ordersRepository, type OrderRow } from '../orders/repository.ts';
import { applyOrderTimer } from '../orders/jobs.ts';
import { paymentAccountsRepository } from '../paymentAccounts/repository.ts';
import { applyAccountVerification } from '../paymentAccounts/jobs.ts';
import { v1OrdersRepository } from '../v1/repository.ts';
import { applyV1OrderTimer } from '../v1/orders/jobs.ts';
import { clocksRepository, partnerClock, type DueScope } from './repository.ts';

export type TransitionKind = components['schemas']['SandboxTransitionKind'];

/** One change that falls due: the object, its organization, and its due instant on the partner's clock. */
export interface DueItem {
  kind: TransitionKind;
  id: string;
  organizationId: string;
  dueAt: string;
}

export interface Timer {
  /** The background job that applies it. */
  job: string;
  /** Its objects due by `until` on the clock of `scope`, earliest first. */
  due(db: Db, scope: DueScope, until: string, limit: number): Promise<DueItem[]>;
  /** Applies one, if still due at `services.clock`: true when it changed the object. */
  apply(services: Services, item: DueItem): Promise<boolean>;
}

const orderTimer = (job: string, timer: 'settle' | 'fundingDeadline', kind: TransitionKind, status: OrderRow['status'], column: 'settle_at' | 'funding_deadline'): Timer => ({
  job,
  async due(db, scope, until, limit) {
    const rows = await ordersRepository(db).due(status, column, until, limit, scope);
    return rows.map((row) => ({ kind, id: row.id, organizationId: row.organization_id, dueAt: row.due_at! }));
  },
  apply: (services, item) => applyOrderTimer(services, timer, item.organizationId, item.id),
});

export const timers: Timer[] = [
  // An unfunded order is canceled at its funding deadline (fundingWindowMs), its authorization with it.
  orderTimer('expireOrderFunding', 'fundingDeadline', 'orderFundingExpired', 'created', 'funding_deadline'),
  // A deposited onramp completes (settleDelayMs).
  orderTimer('settleOrders', 'settle', 'orderCompleted', 'funded', 'settle_at'),
  // The rail verifies a payment account (verificationDelayMs).
  {
    job: 'verifyPaymentAccounts',
    async due(db, scope, until, limit) {
      const rows = await paymentAccountsRepository(db).dueForVerification(until, limit, scope);
      return rows.map((row) => ({ kind: 'paymentAccountReady' as const, id: row.id, organizationId: row.organization_id, dueAt: row.verify_at! }));
    },
    apply: (services, item) => applyAccountVerification(services, item.organizationId, item.id),
  },
  // v1: a funded onramp's tokens arrive (RAMP_V1_DELIVERY_SECONDS); a completed offramp is finalized (RAMP_V1_REVERSAL_WINDOW_SECONDS).
  {
    job: 'v1-order-settlement',
    async due(db, scope, until, limit) {
      const rows = await v1OrdersRepository(db).due(until, limit, scope);
      return rows.map((row) => ({
        kind: row.type === 'onramp' ? ('v1TokensDelivered' as const) : ('v1OfframpFinalized' as const),
        id: row.id,
        organizationId: row.customer_id,
        dueAt: row.due_at!,
      }));
    },
    apply: async (services, item) => (await applyV1OrderTimer(services, item.id)) !== undefined,
  },
];

/** How many due objects one job run takes per clock; the next run takes the rest. */
const batch = 100;

/**
 * A job run: what falls due now, for every partner on real time and for each partner whose
 * running clock has an offset (at real time plus that offset); never for a frozen clock.
 */
export async function applyDueNow(services: Services, timer: Timer): Promise<void> {
  const { db } = services.storage;
  const windows: { scope: DueScope; services: Services }[] = [{ scope: 'onRealTime', services }];
  for (const { partnerId, state } of await clocksRepository(db).runningWithOffset()) {
    windows.push({ scope: { partnerId }, services: { ...services, clock: partnerClock(services.realClock, state) } });
  }
  for (const window of windows) {
    const due = await timer.due(db, window.scope, window.services.clock.now().toISOString(), batch);
    for (const item of due) await timer.apply(window.services, item);
  }
}
