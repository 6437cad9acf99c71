import { sql, type Kysely } from 'kysely';

/**
 * Sandbox clocks (server/features/clock): one row per partner that has touched its clock
 * (no row: running on real time), and on every organization the partner at the top of its
 * parent chain (`top_id`), whose clock it follows, so a request or a due query finds the
 * clock with one indexed read instead of walking the chain. Existing organizations are
 * numbered level by level from the top; parents never change, so the value is final.
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable('organizations').addColumn('top_id', 'text').execute();
  await sql`UPDATE organizations SET top_id = id WHERE parent_id IS NULL`.execute(db);
  for (;;) {
    const result = await sql`
      UPDATE organizations SET top_id = (SELECT p.top_id FROM organizations p WHERE p.id = organizations.parent_id)
      WHERE top_id IS NULL AND parent_id IN (SELECT id FROM organizations WHERE top_id IS NOT NULL)`.execute(db);
    if (Number(result.numAffectedRows ?? 0) === 0) break;
  }
  await db.schema.createIndex('organizations_top').on('organizations').columns(['top_id']).execute();
  await db.schema
    .createTable('sandbox_clocks')
    .addColumn('partner_id', 'text', (c) => c.primaryKey())
    // The instant it stands at while frozen; null while it runs.
    .addColumn('frozen_at', 'text')
    // While running: its time minus real time, in milliseconds.
    .addColumn('offset_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('sandbox_clocks').execute();
  await db.schema.dropIndex('organizations_top').execute();
  await db.schema.alterTable('organizations').dropColumn('top_id').execute();
}
