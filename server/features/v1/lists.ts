/** The v1 POST list endpoints of the money objects: one shape, four tables, oldest first. */
import type { Caller } from '../organizations/scope.ts';
import type { Services } from '../../services.ts';
import type { Db } from '../../storage/database.ts';
import type { components } from '../../../generated/types/ramp.ts';
import { v1BankAccountsRepository, v1OrdersRepository, v1SwapsRepository, v1WalletsRepository, type V1ListRequest, type V1Scope } from './repository.ts';
import type { V1PaginationBody } from '../../shared/pagination.ts';
import { v1Envelope, v1ListRequest, v1Scope } from './common.ts';
import { presentV1BankAccount } from './bankAccounts/presenters.ts';
import { presentV1Order } from './orders/presenters.ts';
import { presentV1Swap } from './swaps/presenters.ts';
import { presentV1Wallet } from './wallets/presenters.ts';

type Schemas = components['schemas'];

/** What each list holds, as its GET returns it. */
interface Listed {
  orders: Schemas['V1Order'];
  wallets: Schemas['V1Wallet'];
  'bank-accounts': Schemas['V1BankAccount'];
  swaps: Schemas['V1Swap'];
}

const listed: { [K in keyof Listed]: (db: Db, scope: V1Scope, page: V1ListRequest) => Promise<{ items: Listed[K][]; total: number }> } = {
  orders: async (db, scope, page) => {
    const { items, total } = await v1OrdersRepository(db).page(scope, page);
    return { items: items.map(presentV1Order), total };
  },
  wallets: async (db, scope, page) => {
    const { items, total } = await v1WalletsRepository(db).page(scope, page);
    return { items: items.map(presentV1Wallet), total };
  },
  'bank-accounts': async (db, scope, page) => {
    const { items, total } = await v1BankAccountsRepository(db).page(scope, page);
    return { items: items.map(presentV1BankAccount), total };
  },
  swaps: async (db, scope, page) => {
    const { items, total } = await v1SwapsRepository(db).page(scope, page);
    return { items: items.map(presentV1Swap), total };
  },
};

export type V1Listed = keyof Listed;

/**
 * A page of `what` across the caller's customers, or of one customer when `customerId` is
 * given. The `next` link repeats the path with the next `pageNumber` and the `pageSize`.
 */
export async function listV1<K extends V1Listed>(
  services: Services,
  caller: Caller,
  what: K,
  request: { customerId?: string; body: V1PaginationBody | undefined; query: { pageNumber?: number; pageSize?: number } },
) {
  const page = v1ListRequest(request.body, request.query);
  const { db } = services.storage;
  const scope = await v1Scope(services, caller, request.customerId);
  const { items, total } = await (listed[what] as (db: Db, scope: V1Scope, page: V1ListRequest) => Promise<{ items: Listed[K][]; total: number }>)(db, scope, page);
  const path = 'customerId' in scope ? `/ramp/customer/${scope.customerId}/${what}` : `/ramp/${what}`;
  return v1Envelope(services.config, path, page, items, total);
}
