/** v1 organizations: create a child organization, rename the own organization or a child. */
import { createChildOrganization, renameOrganization } from '../../features/organizations/useCases.ts';
import { presentOrganization } from '../../features/organizations/presenters.ts';
import type { Handler } from '../types.ts';

export const v1CreateOrganization: Handler<'v1CreateOrganization'> = async ({ body, caller, services }) => {
  const organization = await createChildOrganization(services, caller, body);
  return { status: 201, body: presentOrganization(organization) };
};

export const v1RenameOrganization: Handler<'v1RenameOrganization'> = async ({ params, body, caller, services }) => {
  const organization = await renameOrganization(services, caller, params.org_id, body.displayName);
  return { status: 200, body: { displayName: organization.display_name, organizationId: organization.id } };
};
