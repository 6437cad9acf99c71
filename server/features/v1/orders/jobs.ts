/** The v1 steps the service takes on its own: token delivery of funded onramps, the end of offramp reversal windows. */
import type { Job, Services } from '../../../services.ts';
import { v1OrdersRepository } from '../repository.ts';
import { deliverTokens, move } from './useCases.ts';

export const v1SettlementJob: Job = {
  name: 'v1-order-settlement',
  async run(services) {
    await settleDueV1Orders(services);
  },
};

/**
 * The steps the service takes on its own when due: a funded onramp's tokens are delivered,
 * a completed offramp's reversal window ends. Each order is re-read locked, so two
 * processes never apply one step twice.
 */
export async function settleDueV1Orders(services: Services): Promise<number> {
  const { db, engine } = services.storage;
  const ids = await v1OrdersRepository(db).due(services.clock.now().toISOString(), 100);
  let settled = 0;
  for (const id of ids) {
    await db.transaction().execute(async (tx) => {
      const order = await v1OrdersRepository(tx, engine).find(id, true);
      const now = services.clock.now().toISOString();
      if (!order?.due_at || order.due_at > now) return;
      if (order.type === 'onramp' && order.status === 'funded') await deliverTokens(services, tx, order);
      else if (order.type === 'offramp' && order.status === 'completed') await move(services, tx, order, 'reversalWindowPassed', { due_at: null });
      else await v1OrdersRepository(tx).update(order.id, { due_at: null });
      settled++;
    });
  }
  return settled;
}
