/** v1 swaps (`/ramp/swap…`). */
import { listV1 } from '../../features/v1/lists.ts';
import { presentV1Swap } from '../../features/v1/swaps/presenters.ts';
import { createV1Swap, getV1Swap, regenerateV1SwapTransaction } from '../../features/v1/swaps/useCases.ts';
import type { Handler } from '../types.ts';

export const v1ListCustomerSwaps: Handler<'v1ListCustomerSwaps'> = async ({ services, caller, params, body, query }) => ({
  status: 200,
  body: await listV1(services, caller, 'swaps', { customerId: params.customer_id, body, query }),
});

export const v1CreateSwap: Handler<'v1CreateSwap'> = async ({ services, caller, body }) => ({
  status: 201,
  body: presentV1Swap(await createV1Swap(services, caller, body)),
});

export const v1GetSwap: Handler<'v1GetSwap'> = async ({ services, caller, params }) => ({
  status: 200,
  body: presentV1Swap(await getV1Swap(services, caller, params.id)),
});

export const v1RegenerateSwapTransaction: Handler<'v1RegenerateSwapTransaction'> = async ({ services, caller, params }) => ({
  status: 200,
  body: presentV1Swap(await regenerateV1SwapTransaction(services, caller, params.id)),
});
