import type { Kysely } from 'kysely';

/**
 * Partner sign-in: registered JWT issuers (with the cached fetched JWKS), remembered JWT ids
 * (replay protection shared by every process), sign-ins and the hashes of their tokens.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('jwt_issuers')
    .addColumn('organization_id', 'text', (c) => c.primaryKey().references('organizations.id'))
    // One organization per issuer: `iss` decides which partner a person signs in to.
    .addColumn('issuer', 'text', (c) => c.notNull().unique())
    .addColumn('jwks', 'text')
    .addColumn('jwks_uri', 'text')
    .addColumn('fetched_jwks', 'text')
    .addColumn('fetched_at', 'text')
    .addColumn('fetch_attempted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('auth_assertions')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('auth_assertions_pk', ['issuer', 'value'])
    .execute();
  await db.schema.createIndex('auth_assertions_expires').on('auth_assertions').column('expires_at').execute();

  await db.schema
    .createTable('auth_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.references('organizations.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('picture', 'text')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('auth_tokens')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text', (c) => c.notNull().references('auth_grants.id'))
    .addColumn('return_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('auth_tokens_grant').on('auth_tokens').column('grant_id').execute();
  await db.schema.createIndex('auth_tokens_expires').on('auth_tokens').column('expires_at').execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('auth_tokens').execute();
  await db.schema.dropTable('auth_grants').execute();
  await db.schema.dropTable('auth_assertions').execute();
  await db.schema.dropTable('jwt_issuers').execute();
}
