import type { Kysely } from 'kysely';

/**
 * What a KYC or KYB holds beside its status (the status itself stays on the organization
 * row, `kyc_status` / `kyb_status`, where every flow reads it): the last accepted
 * submission, what the verification asks of the customer, and the v1 rejection reason.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable('verifications')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('needs_work', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_message', 'text')
    .addColumn('update_reason', 'text')
    .addColumn('requirements', 'text')
    .addColumn('submission', 'text')
    .addColumn('submission_surface', 'text')
    .addColumn('submitted_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('verifications_pk', ['organization_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable('verifications').execute();
}
