/**
 * Repositories of the v1 money objects: wallets, bank accounts, orders, swaps and
 * onboarding links. Lists are oldest first: each listed row has its position in its
 * partner's list and its customer's (storage/positions.ts), and a page is a range of the
 * (partner_id|customer_id, partner_position|customer_position) indexes of 100-list-positions.
 * Swaps are listed the same way (v1ListCustomerSwaps; their positions since 150-quote-and-swap-lists).
 */
import type { Selectable } from 'kysely';
import { followsClock, type DueScope } from '../../storage/clockScope.ts';
import type { Db, Engine, Tx } from '../../storage/database.ts';
import { insertWithPositions, positionPage } from '../../storage/positions.ts';
import type { Tables, V1BankAccountsTable, V1OnboardingLinksTable, V1OrdersTable, V1SwapsTable, V1WalletsTable } from '../../storage/tables.ts';

export type V1WalletRow = Selectable<V1WalletsTable>;
export type V1BankAccountRow = Selectable<V1BankAccountsTable>;
export type V1OrderRow = Selectable<V1OrdersTable>;
export type V1SwapRow = Selectable<V1SwapsTable>;
export type V1OnboardingLinkRow = Selectable<V1OnboardingLinksTable>;
/** A listed row before insert: its positions are taken then. */
export type V1NewRow<R> = Omit<R, 'partner_position' | 'customer_position'>;

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
  const [by, column, value] = 'partnerId' in scope ? (['partner', 'partner_id', scope.partnerId] as const) : (['customer', 'customer_id', scope.customerId] as const);
  return positionPage(db, { list: `${table}.${by}`, counter: value, table, scope: { [column]: value }, position: `${by}_position` }, page, 'asc', page);
}

/** Inserts a listed row with its positions in its partner's and its customer's lists; returns it as stored. */
async function insertListed<R extends { partner_id: string; customer_id: string; created_at: string; updated_at: string }>(
  db: Db | Tx,
  table: ListedTable,
  row: R,
): Promise<R & { partner_position: number | null; customer_position: number | null }> {
  const stored = await insertWithPositions(
    db,
    { ...row, partner_position: null as number | null, customer_position: null as number | null },
    [
      { list: `${table}.partner`, scope: row.partner_id, column: 'partner_position' },
      { list: `${table}.customer`, scope: row.customer_id, column: 'customer_position' },
    ],
    async (tx, r) => {
      // One statement for the three tables; Kysely cannot type a table chosen at run time.
      await tx.insertInto(table as 'v1_orders').values(r as unknown as V1OrderRow).execute();
      return true;
    },
  );
  // The insert refuses by throwing (a unique violation), never by answering false.
  return stored!;
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
    insert: (row: V1NewRow<V1WalletRow>) => insertListed(db, 'v1_wallets', row),
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
    insert: (row: V1NewRow<V1BankAccountRow>) => insertListed(db, 'v1_bank_accounts', row),
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
    insert: (row: V1NewRow<V1OrderRow>) => insertListed(db, 'v1_orders', row),
    async update(id: string, changes: Partial<Omit<V1OrderRow, 'id'>>) {
      await db.updateTable('v1_orders').set(changes).where('id', '=', id).execute();
    },
    /** Orders with a step due by `now` on the clock of `scope` (features/clock), earliest first. */
    due(now: string, limit: number, scope: DueScope = 'onRealTime') {
      return db
        .selectFrom('v1_orders')
        .select(['id', 'customer_id', 'type', 'due_at'])
        .where('due_at', '<=', now)
        .where(followsClock('v1_orders.customer_id', scope))
        .orderBy('due_at', 'asc')
        .limit(limit)
        .execute();
    },
    page: (scope: V1Scope, page: V1ListRequest) => listPage(db, 'v1_orders', scope, page),
  };
}

export function v1SwapsRepository(db: Db | Tx, engine: Engine = 'sqlite') {
  return {
    find(id: string, lock = false) {
      return forChange(db.selectFrom('v1_swaps').selectAll().where('id', '=', id), lock ? engine : 'sqlite').executeTakeFirst();
    },
    insert: (row: V1NewRow<V1SwapRow>) => insertListed(db, 'v1_swaps', row),
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
