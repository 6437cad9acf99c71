import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('parent_id', 'text', (c) => c.references('organizations.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('key_salt', 'text', (c) => c.notNull())
    .addColumn('kyb_status', 'text', (c) => c.notNull())
    .addColumn('kyb_approved_at', 'text')
    .addColumn('kyc_status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Children of a partner, newest first: GET /organizations, /ramp/customers.
  await db.schema.createIndex('organizations_parent_created').on('organizations').columns(['parent_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('env', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_organization').on('api_keys').columns(['organization_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('organizations').execute();
}
