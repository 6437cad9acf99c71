/** v2 organizations: the partner's customer organizations, and any one the key can act for. */
import { presentOrganization } from '../../features/organizations/presenters.ts';
import { pageMeta, v2Page } from '../../shared/pagination.ts';
import { actFor } from '../../features/organizations/scope.ts';
import { childOrganizationsPage } from '../../features/organizations/useCases.ts';
import type { Handler } from '../types.ts';

export const listOrganizations: Handler<'listOrganizations'> = async ({ query, caller, services }) => {
  const page = v2Page(query);
  const { items, total } = await childOrganizationsPage(services, caller, page);
  return { status: 200, body: { items: items.map(presentOrganization), ...pageMeta(page, total) } };
};

export const getOrganization: Handler<'getOrganization'> = async ({ params, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: presentOrganization(organization) };
};
