/** Payment accounts: registration, reading and listing (features/paymentAccounts/). */
import { getPaymentAccount as readAccount, listPaymentAccounts as listAccounts, registerPaymentAccount } from '../../features/paymentAccounts/useCases.ts';
import { v2Page } from '../../shared/pagination.ts';
import { actFor } from '../../features/organizations/scope.ts';
import type { Handler } from '../types.ts';

export const listPaymentAccounts: Handler<'listPaymentAccounts'> = async ({ params, query, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: await listAccounts(services, organization, v2Page(query)) };
};

export const getPaymentAccount: Handler<'getPaymentAccount'> = async ({ params, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: await readAccount(services, organization, params.id) };
};

export const createPaymentAccount: Handler<'createPaymentAccount'> = async ({ params, body, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  const { created, account } = await registerPaymentAccount(services, organization, body);
  return created ? { status: 201, body: account } : { status: 200, body: account };
};
