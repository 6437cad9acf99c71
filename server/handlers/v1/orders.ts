/** v1 orders: onramps and offramps (`/ramp/orders`, `/ramp/order…`). */
import { listV1 } from '../../features/v1/lists.ts';
import { cancelV1Order, createV1Order, getV1Order, regenerateV1OrderTransaction } from '../../features/v1/orders/useCases.ts';
import { presentV1Order } from '../../features/v1/orders/presenters.ts';
import type { Handler } from '../types.ts';

export const v1ListOrders: Handler<'v1ListOrders'> = async ({ services, caller, body, query }) => ({
  status: 200,
  body: await listV1(services, caller, 'orders', { body, query }),
});

export const v1ListCustomerOrders: Handler<'v1ListCustomerOrders'> = async ({ services, caller, params, body, query }) => ({
  status: 200,
  body: await listV1(services, caller, 'orders', { customerId: params.customer_id, body, query }),
});

export const v1CreateOrder: Handler<'v1CreateOrder'> = async ({ services, caller, body }) => ({
  status: 201,
  body: presentV1Order(await createV1Order(services, caller, body)),
});

export const v1GetOrder: Handler<'v1GetOrder'> = async ({ services, caller, params }) => ({
  status: 200,
  body: presentV1Order(await getV1Order(services, caller, params.id)),
});

export const v1CancelOrder: Handler<'v1CancelOrder'> = async ({ services, caller, params }) => ({
  status: 200,
  body: presentV1Order(await cancelV1Order(services, caller, params.id)),
});

export const v1RegenerateOrderTransaction: Handler<'v1RegenerateOrderTransaction'> = async ({ services, caller, params }) => ({
  status: 200,
  body: presentV1Order(await regenerateV1OrderTransaction(services, caller, params.id)),
});
