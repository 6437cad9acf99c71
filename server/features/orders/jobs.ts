/**
 * What the service does with v2 orders on its own: a funded onramp delivers; an unfunded
 * order past its deadline is canceled. Declared here as the orders' timers; applied one order
 * at a time by the sandbox clock's mechanism (features/clock/timers.ts), from the background
 * jobs server/jobs.ts gathers and from `POST /sandbox/clock/advance` alike.
 */
import type { Services, Timer, TransitionKind } from '../../services.ts';
import type { OrderAction, OrderStatus } from './machine.ts';
import { ordersRepository } from './repository.ts';
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

const orderTimer = (job: string, timer: keyof typeof orderTimers, kind: TransitionKind): Timer => ({
  job,
  async due(db, scope, until, limit) {
    const { status, column } = orderTimers[timer];
    const rows = await ordersRepository(db).due(status, column, until, limit, scope);
    return rows.map((row) => ({ kind, id: row.id, organizationId: row.organization_id, dueAt: row.due_at! }));
  },
  apply: (services, item) => applyOrderTimer(services, timer, item.organizationId, item.id),
});

/** In the order an advance applies changes due at one instant. */
export const ordersTimers: Timer[] = [
  // An unfunded order is canceled at its funding deadline (fundingWindowMs), its authorization with it.
  orderTimer('expireOrderFunding', 'fundingDeadline', 'orderFundingExpired'),
  // A deposited onramp completes (settleDelayMs).
  orderTimer('settleOrders', 'settle', 'orderCompleted'),
];
