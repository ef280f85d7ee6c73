import type { Knex } from 'knex';

/*
 * Send for signature in one sitting ([4/8]).
 *
 * - Drafts: a business flow and its documents start as 'draft' when the send wizard creates them. No task of a
 *   draft is live and no mail goes out until the sender sends it (draft -> in_progress); a draft can be discarded
 *   (deleted with its documents). Drafts are seen only by the owner organization's editors.
 * - task_fields: boxes the sender places for a task's signer (signature, seal, handwriting, text) on a page of the
 *   document, in PDF points; the signer fills them when signing. tasks.allow_signer_placements says whether the
 *   signer may add boxes of their own besides.
 * - one_time_invitations.mail_pending: an invitation made in a draft flow, whose mail goes out on send.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE business_flows DROP CONSTRAINT IF EXISTS business_flows_status_check');
  await knex.raw(
    `ALTER TABLE business_flows ADD CONSTRAINT business_flows_status_check
       CHECK (status IN ('draft', 'in_progress', 'complete', 'incomplete', 'cancelled'))`,
  );
  await knex.raw('ALTER TABLE documents DROP CONSTRAINT IF EXISTS documents_status_check');
  await knex.raw(
    `ALTER TABLE documents ADD CONSTRAINT documents_status_check
       CHECK (status IN ('draft', 'in_progress', 'completed', 'remanded', 'cancelled'))`,
  );
  // The home screen lists a user's drafts; every other list leaves them out.
  await knex.raw(
    `CREATE INDEX business_flows_drafts ON business_flows (organization_id, created_by, updated_at) WHERE status = 'draft'`,
  );

  await knex.schema.alterTable('tasks', (t) => {
    t.boolean('allow_signer_placements').notNullable().defaultTo(true);
  });

  await knex.schema.createTable('task_fields', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('task_id').notNullable().references('tasks.id').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['signature', 'seal', 'handwritten', 'text']);
    t.integer('page').notNullable();
    t.double('x1').notNullable();
    t.double('y1').notNullable();
    t.double('x2').notNullable();
    t.double('y2').notNullable();
    t.boolean('required').notNullable().defaultTo(true);
    t.text('label');
    t.integer('position').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['task_id', 'position']);
  });

  await knex.schema.alterTable('one_time_invitations', (t) => {
    t.boolean('mail_pending').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('one_time_invitations', (t) => t.dropColumn('mail_pending'));
  await knex.schema.dropTable('task_fields');
  await knex.schema.alterTable('tasks', (t) => t.dropColumn('allow_signer_placements'));
  await knex.raw('DROP INDEX IF EXISTS business_flows_drafts');
  await knex.raw(`DELETE FROM business_flows WHERE status = 'draft'`);
  await knex.raw('ALTER TABLE documents DROP CONSTRAINT IF EXISTS documents_status_check');
  await knex.raw(
    `ALTER TABLE documents ADD CONSTRAINT documents_status_check
       CHECK (status IN ('in_progress', 'completed', 'remanded', 'cancelled'))`,
  );
  await knex.raw('ALTER TABLE business_flows DROP CONSTRAINT IF EXISTS business_flows_status_check');
  await knex.raw(
    `ALTER TABLE business_flows ADD CONSTRAINT business_flows_status_check
       CHECK (status IN ('in_progress', 'complete', 'incomplete', 'cancelled'))`,
  );
}
