import type { Kysely } from 'kysely';

/**
 * The v2 money flows: payment accounts, wallets, quotes and orders. Uniqueness that a rule
 * depends on lives here, so it holds across processes: one holder per CLABE, one wallet per
 * organization, chain and address, and one order per quote.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('payment_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    // One organization holds a CLABE: a second one gets payment-account-unavailable.
    .addColumn('clabe', 'text', (c) => c.notNull().unique())
    .addColumn('memo', 'text')
    .addColumn('account_holder_name', 'text', (c) => c.notNull())
    .addColumn('tax_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('rails', 'text', (c) => c.notNull())
    .addColumn('verify_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_accounts_organization').on('payment_accounts').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('payment_accounts_verify').on('payment_accounts').columns(['verify_at']).execute();

  await db.schema
    .createTable('wallets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('blockchain', 'text', (c) => c.notNull())
    .addColumn('custody', 'text', (c) => c.notNull())
    .addColumn('signer_public_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('wallets_organization_chain_address', ['organization_id', 'blockchain', 'address'])
    .execute();
  await db.schema.createIndex('wallets_organization_created').on('wallets').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('quotes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('source_asset', 'text', (c) => c.notNull())
    .addColumn('target_asset', 'text', (c) => c.notNull())
    .addColumn('source_amount', 'text', (c) => c.notNull())
    .addColumn('target_amount', 'text', (c) => c.notNull())
    .addColumn('rate', 'text', (c) => c.notNull())
    .addColumn('fee', 'text', (c) => c.notNull())
    .addColumn('rail', 'text')
    .addColumn('payment_account_id', 'text', (c) => c.references('payment_accounts.id'))
    .addColumn('wallet_address', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    // One order per quote, however many requests race for it (createOrder retries read it back).
    .addColumn('quote_id', 'text', (c) => c.notNull().unique().references('quotes.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source_asset', 'text', (c) => c.notNull())
    .addColumn('target_asset', 'text', (c) => c.notNull())
    .addColumn('source_amount', 'text', (c) => c.notNull())
    .addColumn('target_amount', 'text', (c) => c.notNull())
    .addColumn('payment_account_id', 'text', (c) => c.references('payment_accounts.id'))
    .addColumn('wallet_address', 'text')
    .addColumn('blockchain', 'text')
    .addColumn('funding_instructions', 'text')
    .addColumn('funding_deadline', 'text')
    .addColumn('authorization_id', 'text')
    .addColumn('authorization_message', 'text')
    .addColumn('authorization_expires_at', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('failure_message', 'text')
    .addColumn('claim', 'text')
    .addColumn('settle_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('orders_organization_created').on('orders').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('orders_created').on('orders').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('orders_status_settle').on('orders').columns(['status', 'settle_at']).execute();
  await db.schema.createIndex('orders_status_deadline').on('orders').columns(['status', 'funding_deadline']).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('orders').execute();
  await db.schema.dropTable('quotes').execute();
  await db.schema.dropTable('wallets').execute();
  await db.schema.dropTable('payment_accounts').execute();
}
