/**
 * What the service does with v2 orders on its own: a funded onramp delivers; an unfunded
 * order past its deadline is canceled. Applied one order at a time by the sandbox clock's
 * timers (features/clock/timers.ts), from the background jobs registered in server/jobs.ts
 * and from `POST /sandbox/clock/advance` alike.
 */
import type { Services } from '../../services.ts';
import type { OrderAction, OrderStatus } from './machine.ts';
import { changeOrder, statusChange } from './useCases.ts';

export const orderTimers = {
  settle: { status: 'funded', column: 'settle_at', action: 'settle' },
  fundingDeadline: { status: 'created', column: 'funding_deadline', action: 'expireFunding' },
} as const satisfies Record<string, { status: OrderStatus; column: 'settle_at' | 'funding_deadline'; action: OrderAction }>;

/**
 * Applies an order's timer when it is due at the services' clock (the partner's, or the
 * instant an advance reached): true when it moved the order. Run by the background job and
 * by `POST /sandbox/clock/advance` alike (features/clock/timers.ts).
 */
export async function applyOrderTimer(services: Services, timer: keyof typeof orderTimers, organizationId: string, id: string): Promise<boolean> {
  const { status, column, action } = orderTimers[timer];
  let applied = false;
  await changeOrder(services, organizationId, id, (order, now) => {
    // Another process, an advance or a simulator moved it first.
    if (order.status !== status || order[column] === null || order[column]! > now.toISOString()) return undefined;
    applied = true;
    return statusChange(order, action);
  });
  return applied;
}
