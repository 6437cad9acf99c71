import type { Kysely } from 'kysely';

/**
 * The origin that may frame a browser session's app pages (`frame_ancestor`): the `origin`
 * of the launch that opened it (`/auth/launch?origin=`), or null, and then no page of the
 * session may be framed. Sessions made before have none, so their pages refuse every frame.
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable('auth_tokens').addColumn('frame_ancestor', 'text').execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable('auth_tokens').dropColumn('frame_ancestor').execute();
}
