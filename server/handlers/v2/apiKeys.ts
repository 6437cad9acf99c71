/** v2 API keys: created for the key's own organization; listed and revoked for it or a direct customer. */
import { presentApiKey } from '../../features/apiKeys/presenters.ts';
import { activeKeysPage, assertOwnOrganization, issueApiKey, revokeApiKey } from '../../features/apiKeys/useCases.ts';
import { pageMeta, v2Page } from '../../shared/pagination.ts';
import { actFor } from '../../features/organizations/scope.ts';
import type { Handler } from '../types.ts';

export const createApiKey: Handler<'createApiKey'> = async ({ params, caller, services }) => {
  // A grandchild or a stranger stays 404 (actFor); a direct customer is 403.
  const organization = await actFor(services, caller, params.organizationId);
  assertOwnOrganization(caller.organization.id, organization.id);
  const { row, key } = await issueApiKey(services, organization.id);
  return { status: 201, body: { ...presentApiKey(row), key } };
};

export const listApiKeys: Handler<'listApiKeys'> = async ({ params, query, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  const page = v2Page(query);
  const { items, total } = await activeKeysPage(services, organization.id, page);
  return { status: 200, body: { items: items.map(presentApiKey), ...pageMeta(page, total) } };
};

export const deleteApiKey: Handler<'deleteApiKey'> = async ({ params, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  await revokeApiKey(services, organization.id, params.id);
  return { status: 204, body: undefined };
};
