/** v1 customers: the partner's direct child organizations, oldest first. */
import { presentV1Customer } from '../../domain/organizationPresenters.ts';
import { v1Customer, v1Envelope, v1ListRequest } from '../../domain/v1/common.ts';
import { organizationsRepository } from '../../storage/organizations.ts';
import type { V1PaginationBody } from '../../domain/pagination.ts';
import type { Services } from '../../services.ts';
import type { Caller, Handler } from '../types.ts';

async function customersPage(services: Services, caller: Caller, body: V1PaginationBody | undefined, query: { pageNumber?: number; pageSize?: number }) {
  const page = v1ListRequest(body, query);
  const { items, total } = await organizationsRepository(services.storage.db).childrenPage(caller.organization.id, page, page, 'asc');
  return v1Envelope(services.config, '/ramp/customers', page, items.map(presentV1Customer), total);
}

export const v1ListCustomers: Handler<'v1ListCustomers'> = async ({ query, caller, services }) => ({
  status: 200,
  body: await customersPage(services, caller, undefined, query),
});

export const v1SearchCustomers: Handler<'v1SearchCustomers'> = async ({ body, query, caller, services }) => ({
  status: 200,
  body: await customersPage(services, caller, body, query),
});

export const v1GetCustomer: Handler<'v1GetCustomer'> = async ({ params, caller, services }) => ({
  status: 200,
  body: presentV1Customer(await v1Customer(services.storage.db, caller, params.customer_id)),
});
