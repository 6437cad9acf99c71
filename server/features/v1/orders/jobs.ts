/**
 * The v1 steps the service takes on its own: token delivery of funded onramps, the end of
 * offramp reversal windows. Declared here as the v1 orders' timer; applied one order at a
 * time by the sandbox clock's mechanism (features/clock/timers.ts), from the background job
 * server/jobs.ts gathers and from `POST /sandbox/clock/advance` alike.
 */
import type { Services, Timer } from '../../../services.ts';
import { v1OrdersRepository } from '../repository.ts';
import { changeV1Order, deliverTokens } from './useCases.ts';

/**
 * The step the service takes on its own when an order's is due at the services' clock: a
 * funded onramp's tokens are delivered, a completed offramp's reversal window ends. The
 * order is re-read locked, so two processes (or a job and an advance) never apply one step
 * twice. Answers what it did, undefined when nothing was due.
 */
export async function applyV1OrderTimer(services: Services, id: string): Promise<'tokensDelivered' | 'reversalWindowPassed' | undefined> {
  let applied: 'tokensDelivered' | 'reversalWindowPassed' | undefined;
  await changeV1Order(services, (tx) => v1OrdersRepository(tx, services.storage.engine).find(id, true), (order, now) => {
    if (!order.due_at || order.due_at > now.toISOString()) return undefined;
    if (order.type === 'onramp' && order.status === 'funded') {
      applied = 'tokensDelivered';
      return { steps: [deliverTokens(order)] };
    }
    if (order.type === 'offramp' && order.status === 'completed') {
      applied = 'reversalWindowPassed';
      return { steps: [{ event: 'reversalWindowPassed', changes: { due_at: null } }] };
    }
    return { silent: { due_at: null } };
  });
  return applied;
}

export const v1OrdersTimers: Timer[] = [
  // A funded onramp's tokens arrive (RAMP_V1_DELIVERY_SECONDS); a completed offramp is finalized (RAMP_V1_REVERSAL_WINDOW_SECONDS).
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
