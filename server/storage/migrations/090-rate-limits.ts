import type { Kysely } from 'kysely';

/** Fixed-window request counters (server/features/rateLimits/useCases.ts), shared by every process. */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('rate_limit_windows')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_windows_pk', ['bucket', 'window_start'])
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('rate_limit_windows').execute();
}
