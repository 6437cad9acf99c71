/** What the service does with v2 orders on its own (registered in server/jobs.ts). */
import type { Job } from '../../services.ts';
import { ordersRepository } from './repository.ts';
import type { OrderAction, OrderStatus } from './machine.ts';
import { changeOrder, statusChange } from './useCases.ts';

/** What the service does on its own: a funded onramp delivers; an unfunded order past its deadline is canceled. */
function dueJob(name: string, status: OrderStatus, column: 'settle_at' | 'funding_deadline', action: OrderAction): Job {
  return {
    name,
    async run(services) {
      const due = await ordersRepository(services.storage.db).due(status, column, services.clock.now().toISOString());
      for (const { id, organization_id } of due) {
        await changeOrder(services, organization_id, id, (order, now) => {
          // Another process, or a simulator, moved it first.
          if (order.status !== status || order[column] === null || order[column]! > now.toISOString()) return undefined;
          return statusChange(order, action);
        });
      }
    },
  };
}

export const settleOrders = dueJob('settleOrders', 'funded', 'settle_at', 'settle');
export const expireOrderFunding = dueJob('expireOrderFunding', 'created', 'funding_deadline', 'expireFunding');
