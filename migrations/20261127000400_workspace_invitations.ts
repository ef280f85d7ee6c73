import type { Knex } from 'knex';

/*
 * Partner organizations invited to a workspace by link (core/modules/workspaces/invitations): an administrator of
 * the owner organization invites an e-mail address with the public / editable flags the partner will get; the mail
 * carries `/workspaces/{workspaceId}/join?invitation=<token>`. The token is stored only as SHA-256 and replaced on
 * every re-send (earlier links die); cancelling sets status 'cancelled'; accepting sets 'accepted' and records which
 * organization joined. One pending invitation per address and workspace.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workspace_invitations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    // The owner organization of the workspace: the invitation is its row.
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('locale').notNullable().defaultTo('ja').checkIn(['ja', 'en']);
    t.boolean('is_public').notNullable().defaultTo(true);
    t.boolean('is_editable').notNullable().defaultTo(false);
    t.text('status').notNullable().defaultTo('pending').checkIn(['pending', 'accepted', 'cancelled']);
    t.text('token_hash').notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.integer('sent_count').notNullable().defaultTo(1);
    t.timestamp('last_sent_at', { useTz: true }).notNullable();
    t.uuid('invited_by').references('users.id').onDelete('SET NULL');
    t.uuid('accepted_organization_id').references('organizations.id').onDelete('SET NULL');
    t.uuid('accepted_by').references('users.id').onDelete('SET NULL');
    t.timestamp('accepted_at', { useTz: true });
    t.timestamp('cancelled_at', { useTz: true });
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.index(['workspace_id', 'created_at']);
  });
  await knex.raw(
    `CREATE UNIQUE INDEX workspace_invitations_pending_email ON workspace_invitations (workspace_id, lower(email))
     WHERE status = 'pending'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('workspace_invitations');
}
