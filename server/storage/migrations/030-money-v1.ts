import type { Kysely } from 'kysely';

/** v1 wallets, bank accounts, orders, swaps and onboarding links (server/features/v1/repository.ts). */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('v1_wallets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('blockchain', 'text', (c) => c.notNull())
    .addColumn('custody', 'text', (c) => c.notNull())
    .addColumn('signer_public_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One registration of an address per customer and chain, even under concurrent requests.
  await db.schema.createIndex('v1_wallets_customer_address').unique().on('v1_wallets').columns(['customer_id', 'blockchain', 'address']).execute();
  await db.schema.createIndex('v1_wallets_partner_created').on('v1_wallets').columns(['partner_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('v1_wallets_customer_created').on('v1_wallets').columns(['customer_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('v1_bank_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('clabe', 'text', (c) => c.notNull())
    .addColumn('account_label', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('compliant', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // A CLABE belongs to one organization at a time.
  await db.schema.createIndex('v1_bank_accounts_clabe').unique().on('v1_bank_accounts').column('clabe').execute();
  await db.schema.createIndex('v1_bank_accounts_partner_created').on('v1_bank_accounts').columns(['partner_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('v1_bank_accounts_customer_created').on('v1_bank_accounts').columns(['customer_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('v1_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source_amount', 'text', (c) => c.notNull())
    .addColumn('target_amount', 'text')
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('blockchain', 'text', (c) => c.notNull())
    .addColumn('wallet_id', 'text', (c) => c.references('v1_wallets.id'))
    .addColumn('wallet_address', 'text', (c) => c.notNull())
    .addColumn('bank_account_id', 'text', (c) => c.references('v1_bank_accounts.id'))
    .addColumn('deposit_clabe', 'text')
    .addColumn('confirmed_tx_signature', 'text')
    .addColumn('burn_transaction', 'text')
    .addColumn('transaction_expired', 'integer', (c) => c.notNull())
    .addColumn('approval_message_id', 'text')
    .addColumn('approval_message', 'text')
    .addColumn('approval_summary', 'text')
    .addColumn('due_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Each onramp has its own deposit CLABE, so a deposit names exactly one order.
  await db.schema.createIndex('v1_orders_deposit_clabe').unique().on('v1_orders').column('deposit_clabe').execute();
  await db.schema.createIndex('v1_orders_partner_created').on('v1_orders').columns(['partner_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('v1_orders_customer_created').on('v1_orders').columns(['customer_id', 'created_at', 'id']).execute();
  // The settlement job's scan: orders whose next automatic step is due.
  await db.schema.createIndex('v1_orders_due').on('v1_orders').column('due_at').execute();

  await db.schema
    .createTable('v1_swaps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('wallet_id', 'text', (c) => c.notNull().references('v1_wallets.id'))
    .addColumn('blockchain', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source_token', 'text', (c) => c.notNull())
    .addColumn('target_token', 'text', (c) => c.notNull())
    .addColumn('source_amount', 'text', (c) => c.notNull())
    .addColumn('send_transaction', 'text', (c) => c.notNull())
    .addColumn('transaction_expired', 'integer', (c) => c.notNull())
    .addColumn('send_transaction_hash', 'text')
    .addColumn('receive_transaction_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('v1_swaps_partner_created').on('v1_swaps').columns(['partner_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('v1_swaps_customer_created').on('v1_swaps').columns(['customer_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('v1_onboarding_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('customer_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('signature_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ['v1_onboarding_links', 'v1_swaps', 'v1_orders', 'v1_bank_accounts', 'v1_wallets']) await db.schema.dropTable(table).execute();
}
