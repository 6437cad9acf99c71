/** v1 customers: the partner's direct child organizations, oldest first (`v1ListCustomers`, `v1SearchCustomers`). */
import type { Services } from '../../../services.ts';
import type { V1PaginationBody } from '../../../shared/pagination.ts';
import type { Caller } from '../../organizations/scope.ts';
import { organizationsRepository } from '../../organizations/repository.ts';
import { v1Envelope, v1ListRequest } from '../common.ts';
import { presentV1Customer } from './presenters.ts';

/** A page of the caller's customers in the v1 envelope; `filters.fromDate`/`toDate` bound their creation. */
export async function v1CustomersPage(services: Services, caller: Caller, body: V1PaginationBody | undefined, query: { pageNumber?: number; pageSize?: number }) {
  const page = v1ListRequest(body, query);
  const { items, total } = await organizationsRepository(services.storage.db).childrenPage(caller.organization.id, page, page, 'asc');
  return v1Envelope(services.config, '/ramp/customers', page, items.map(presentV1Customer), total);
}
