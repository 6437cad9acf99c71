import type { Kysely } from 'kysely';

/**
 * Each v2 order keeps the body GET /orders lists it with (features/orders/presenters.ts
 * `orderBody`): the Order as JSON text, checked against the contract when written, and the tag
 * of the contract and presenter it was made by. Orders stored before this migration have
 * neither; a list presents such an order from its columns, as it presents one whose tag is
 * not the running server's.
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable('orders').addColumn('body', 'text').execute();
  await db.schema.alterTable('orders').addColumn('body_tag', 'text').execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.alterTable('orders').dropColumn('body_tag').execute();
  await db.schema.alterTable('orders').dropColumn('body').execute();
}
