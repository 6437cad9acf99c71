/** Orders: creation from a quote, reading, listing, cancel, authorization and claim (features/orders/). */
import * as orders from '../../features/orders/useCases.ts';
import { v2Page } from '../../shared/pagination.ts';
import { actFor } from '../../features/organizations/scope.ts';
import type { Handler } from '../types.ts';

export const listOrders: Handler<'listOrders'> = async ({ query, caller, services }) => ({
  status: 200,
  body: await orders.listOrders(services, caller, v2Page(query), query.organizationId),
});

export const createOrder: Handler<'createOrder'> = async ({ params, body, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  const { created, order } = await orders.createOrder(services, organization, body.quoteId);
  return created ? { status: 201, body: order } : { status: 200, body: order };
};

export const getOrder: Handler<'getOrder'> = async ({ params, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: await orders.getOrder(services, organization, params.id) };
};

export const cancelOrder: Handler<'cancelOrder'> = async ({ params, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: await orders.cancelOrder(services, organization, params.id) };
};

export const authorizeOrder: Handler<'authorizeOrder'> = async ({ params, body, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: await orders.authorizeOrder(services, organization, params.id, body) };
};

export const claimOrder: Handler<'claimOrder'> = async ({ params, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: await orders.claimOrder(services, organization, params.id) };
};
