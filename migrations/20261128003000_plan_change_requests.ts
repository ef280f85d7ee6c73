import type { Knex } from 'knex';

/**
 * An owner's request for another plan or other paid options, applied by the service operator (plans are billed):
 * at most one pending request per organization.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plan_change_requests', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('plan').notNullable();
    t.specificType('options', 'text[]').notNullable().defaultTo('{}');
    t.text('comment').notNullable().defaultTo('');
    t.text('current_plan').notNullable();
    t.specificType('current_options', 'text[]').notNullable().defaultTo('{}');
    t.text('status').notNullable().defaultTo('pending');
    t.uuid('requested_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('closed_at', { useTz: true });
    t.index(['organization_id', 'created_at']);
  });
  await knex.raw(
    `ALTER TABLE plan_change_requests ADD CONSTRAINT plan_change_requests_status_check
       CHECK (status IN ('pending', 'applied', 'superseded', 'withdrawn'))`,
  );
  await knex.raw(
    `CREATE UNIQUE INDEX plan_change_requests_one_pending ON plan_change_requests (organization_id)
       WHERE status = 'pending'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('plan_change_requests');
}
