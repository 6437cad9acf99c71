/** v1 wallets (`/ramp/wallets`, `/ramp/wallet…`). */
import { listV1 } from '../../features/v1/lists.ts';
import { presentV1Wallet } from '../../features/v1/wallets/presenters.ts';
import { createV1Wallet, getV1Wallet } from '../../features/v1/wallets/useCases.ts';
import type { Handler } from '../types.ts';

export const v1ListWallets: Handler<'v1ListWallets'> = async ({ services, caller, body, query }) => ({
  status: 200,
  body: await listV1(services, caller, 'wallets', { body, query }),
});

export const v1ListCustomerWallets: Handler<'v1ListCustomerWallets'> = async ({ services, caller, params, body, query }) => ({
  status: 200,
  body: await listV1(services, caller, 'wallets', { customerId: params.customer_id, body, query }),
});

export const v1CreateWallet: Handler<'v1CreateWallet'> = async ({ services, caller, body }) => ({
  status: 201,
  body: presentV1Wallet(await createV1Wallet(services, caller, body)),
});

export const v1GetWallet: Handler<'v1GetWallet'> = async ({ services, caller, params }) => ({
  status: 200,
  body: presentV1Wallet(await getV1Wallet(services, caller, params.id)),
});
