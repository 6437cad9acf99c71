/** v1 customers: the partner's direct child organizations, oldest first. */
import { v1Customer } from '../../features/v1/common.ts';
import { presentV1Customer } from '../../features/v1/customers/presenters.ts';
import { v1CustomersPage } from '../../features/v1/customers/useCases.ts';
import type { Handler } from '../types.ts';

export const v1ListCustomers: Handler<'v1ListCustomers'> = async ({ query, caller, services }) => ({
  status: 200,
  body: await v1CustomersPage(services, caller, undefined, query),
});

export const v1SearchCustomers: Handler<'v1SearchCustomers'> = async ({ body, query, caller, services }) => ({
  status: 200,
  body: await v1CustomersPage(services, caller, body, query),
});

export const v1GetCustomer: Handler<'v1GetCustomer'> = async ({ params, caller, services }) => ({
  status: 200,
  body: presentV1Customer(await v1Customer(services, caller, params.customer_id)),
});
