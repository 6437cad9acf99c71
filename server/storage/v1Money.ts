/**
 * Repositories of the v1 money objects: wallets, bank accounts, orders, swaps and
 * onboarding links. Lists are oldest first on (created_at, id), served by the
 * (partner_id|customer_id, created_at, id) indexes of 030-money-v1.
 */
import type { Selectable } from 'kysely';
import type { Db, Engine, Tx } from './database.ts';
import type { Tables, V1BankAccountsTable, V1OnboardingLinksTable, V1OrdersTable, V1SwapsTable, V1WalletsTable } from './tables.ts';

export type V1WalletRow = Selectable<V1WalletsTable>;
export type V1BankAccountRow = Selectable<V1BankAccountsTable>;
export type V1OrderRow = Selectable<V1OrdersTable>;
export type V1SwapRow = Selectable<V1SwapsTable>;
export type V1OnboardingLinkRow = Selectable<V1OnboardingLinksTable>;

/** Whose objects a list covers: all of a partner's customers, or one customer. */
export type V1Scope = { partnerId: string } | { customerId: string };

export interface V1ListRequest {
  size: number;
  number: number;
  /** Created strictly after. */
  from?: string;
  /** Created at or before. */
  to?: string;
}

type ListedTable = 'v1_wallets' | 'v1_bank_accounts' | 'v1_orders' | 'v1_swaps';

async function listPage<T extends ListedTable>(db: Db | Tx, table: T, scope: V1Scope, page: V1ListRequest): Promise<{ items: Selectable<Tables[T]>[]; total: number }> {
  // One query shape for the four tables; Kysely cannot type a table chosen at run time.
  let query = db.selectFrom(table as 'v1_orders');
  query = 'partnerId' in scope ? query.where('partner_id', '=', scope.partnerId) : query.where('customer_id', '=', scope.customerId);
  if (page.from) query = query.where('created_at', '>', page.from);
  if (page.to) query = query.where('created_at', '<=', page.to);
  const [items, total] = await Promise.all([
    query.selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc').limit(page.size).offset(page.size * page.number).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: items as unknown as Selectable<Tables[T]>[], total: Number(total.n) };
}

/** A unique index refused the row (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | undefined;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Reads a row to change it: locked on PostgreSQL; SQLite serializes writers anyway. */
function forChange<Q extends { forUpdate(): Q }>(query: Q, engine: Engine): Q {
  return engine === 'postgres' ? query.forUpdate() : query;
}

export function v1WalletsRepository(db: Db | Tx) {
  return {
    find(id: string) {
      return db.selectFrom('v1_wallets').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findByAddress(customerId: string, blockchain: string, address: string) {
      return db
        .selectFrom('v1_wallets')
        .selectAll()
        .where('customer_id', '=', customerId)
        .where('blockchain', '=', blockchain as V1WalletRow['blockchain'])
        .where('address', '=', address)
        .executeTakeFirst();
    },
    async insert(row: V1WalletRow) {
      await db.insertInto('v1_wallets').values(row).execute();
      return row;
    },
    page: (scope: V1Scope, page: V1ListRequest) => listPage(db, 'v1_wallets', scope, page),
  };
}

export function v1BankAccountsRepository(db: Db | Tx, engine: Engine = 'sqlite') {
  return {
    find(id: string, lock = false) {
      return forChange(db.selectFrom('v1_bank_accounts').selectAll().where('id', '=', id), lock ? engine : 'sqlite').executeTakeFirst();
    },
    findByClabe(clabe: string) {
      return db.selectFrom('v1_bank_accounts').selectAll().where('clabe', '=', clabe).executeTakeFirst();
    },
    async insert(row: V1BankAccountRow) {
      await db.insertInto('v1_bank_accounts').values(row).execute();
      return row;
    },
    async update(id: string, changes: Partial<Omit<V1BankAccountRow, 'id'>>) {
      await db.updateTable('v1_bank_accounts').set(changes).where('id', '=', id).execute();
    },
    /** Every account of a customer, oldest first (the onboarding redemption). */
    ofCustomer(customerId: string) {
      return db.selectFrom('v1_bank_accounts').selectAll().where('customer_id', '=', customerId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    },
    page: (scope: V1Scope, page: V1ListRequest) => listPage(db, 'v1_bank_accounts', scope, page),
  };
}

export function v1OrdersRepository(db: Db | Tx, engine: Engine = 'sqlite') {
  return {
    find(id: string, lock = false) {
      return forChange(db.selectFrom('v1_orders').selectAll().where('id', '=', id), lock ? engine : 'sqlite').executeTakeFirst();
    },
    async insert(row: V1OrderRow) {
      await db.insertInto('v1_orders').values(row).execute();
      return row;
    },
    async update(id: string, changes: Partial<Omit<V1OrderRow, 'id'>>) {
      await db.updateTable('v1_orders').set(changes).where('id', '=', id).execute();
    },
    /** Ids of orders whose automatic step is due, oldest due first. */
    async due(now: string, limit: number) {
      const rows = await db.selectFrom('v1_orders').select('id').where('due_at', '<=', now).orderBy('due_at', 'asc').limit(limit).execute();
      return rows.map((r) => r.id);
    },
    page: (scope: V1Scope, page: V1ListRequest) => listPage(db, 'v1_orders', scope, page),
  };
}

export function v1SwapsRepository(db: Db | Tx, engine: Engine = 'sqlite') {
  return {
    find(id: string, lock = false) {
      return forChange(db.selectFrom('v1_swaps').selectAll().where('id', '=', id), lock ? engine : 'sqlite').executeTakeFirst();
    },
    async insert(row: V1SwapRow) {
      await db.insertInto('v1_swaps').values(row).execute();
      return row;
    },
    async update(id: string, changes: Partial<Omit<V1SwapRow, 'id'>>) {
      await db.updateTable('v1_swaps').set(changes).where('id', '=', id).execute();
    },
    page: (scope: V1Scope, page: V1ListRequest) => listPage(db, 'v1_swaps', scope, page),
  };
}

export function v1OnboardingLinksRepository(db: Db | Tx) {
  return {
    find(id: string) {
      return db.selectFrom('v1_onboarding_links').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async insert(row: V1OnboardingLinkRow) {
      await db.insertInto('v1_onboarding_links').values(row).execute();
      return row;
    },
  };
}
