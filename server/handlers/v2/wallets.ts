/** Wallets: registration and listing (features/wallets/). */
import { v2Page } from '../../shared/pagination.ts';
import { actFor } from '../../features/organizations/scope.ts';
import { createWallet as register, listWallets as list } from '../../features/wallets/useCases.ts';
import type { Handler } from '../types.ts';

export const listWallets: Handler<'listWallets'> = async ({ params, query, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: await list(services, organization, v2Page(query)) };
};

export const createWallet: Handler<'createWallet'> = async ({ params, body, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 201, body: await register(services, organization, body) };
};
