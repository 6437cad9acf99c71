import { sql, type Kysely } from 'kysely';

/**
 * The indexes createOrder writes and reads. Two indexes of `orders` hold only the orders that
 * can use them, so that its insert writes two index entries fewer (each a page SQLite copies
 * into its log at every commit):
 * - `orders_status_settle` serves the settle job (features/orders/jobs.ts), which looks for
 *   funded orders whose `settle_at` is due; a new order has none, and leaving that status
 *   clears it (useCases.ts `statusChange`).
 * - `orders_cover_position` serves GET /orders of an organization with a parent, for its own
 *   orders (ordersRepository `page`); a partner at the top has none of those.
 * Both queries compare the column (`<=`, `>=`), which implies it is not null, so SQLite and
 * PostgreSQL still find the index (test/storage/positions.test.ts reads the plans).
 *
 * createOrder finds the quote's wallet by organization and address, the oldest first (one EVM
 * address may be registered on several chains): `wallets_organization_address` answers that
 * in index order, where the unique (organization, chain, address) index left it to sort the
 * organization's wallets on every order.
 */
export async function up(db: Kysely<any>) {
  await db.schema.dropIndex('orders_status_settle').execute();
  await db.schema.createIndex('orders_status_settle').on('orders').columns(['status', 'settle_at']).where(sql.ref('settle_at'), 'is not', null).execute();
  await db.schema.dropIndex('orders_cover_position').execute();
  await db.schema.createIndex('orders_cover_position').on('orders').columns(['organization_id', 'cover_position']).where(sql.ref('cover_position'), 'is not', null).execute();
  await db.schema.createIndex('wallets_organization_address').on('wallets').columns(['organization_id', 'address', 'created_at']).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('wallets_organization_address').execute();
  await db.schema.dropIndex('orders_status_settle').execute();
  await db.schema.createIndex('orders_status_settle').on('orders').columns(['status', 'settle_at']).execute();
  await db.schema.dropIndex('orders_cover_position').execute();
  await db.schema.createIndex('orders_cover_position').on('orders').columns(['organization_id', 'cover_position']).execute();
}
