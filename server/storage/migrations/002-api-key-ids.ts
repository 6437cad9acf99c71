import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * API keys get a public id (the `id` a partner lists and deletes a key by) apart from the
 * key's `{key_id}` segment, and the segment itself is no longer stored: it is the secret part
 * of the key, so the row keeps only `lookup` = SHA-256 of it (to find the row) beside the
 * salted hash of the whole key (to verify it). 001 used the raw segment as the primary key;
 * a primary key cannot change in place on SQLite, so the table is rebuilt.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('api_keys_002')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('lookup', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('env', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  // Frozen copy of keyLookup() in server/features/apiKeys/rules.ts: a migration must not change later.
  const lookup = (keyId: string) => createHash('sha256').update(keyId).digest('hex');
  for (const row of await db.selectFrom('api_keys').selectAll().execute()) {
    await db.insertInto('api_keys_002').values({ ...row, id: randomUUID(), lookup: lookup(row.id) }).execute();
  }
  await db.schema.dropTable('api_keys').execute();
  await db.schema.alterTable('api_keys_002').renameTo('api_keys').execute();
  // An organization's active keys, oldest first (listApiKeys, the limit of 5). Partial:
  // revoked keys pile up over time and stay out of it.
  await db.schema
    .createIndex('api_keys_organization_active')
    .on('api_keys')
    .columns(['organization_id', 'created_at', 'id'])
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('api_keys_organization_active').execute();
  await db.schema.alterTable('api_keys').renameTo('api_keys_002').execute();
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
  // The raw key ids are gone: the keys cannot come back, so they go.
  await db.schema.dropTable('api_keys_002').execute();
  await db.schema.createIndex('api_keys_organization').on('api_keys').columns(['organization_id', 'created_at']).execute();
}
