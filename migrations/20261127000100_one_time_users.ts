import type { Knex } from 'knex';

/*
 * One-time (guest) users: counterparties with only an e-mail address, invited to one business flow by e-mail or QR
 * code, who prove the address with a code and act on the tasks assigned to them through a guest session.
 *
 * - one_time_users: a participant of one workspace (kind 'one_time_user'), owned by the workspace's organization.
 *   A QR invitation may create one before anybody scanned it: its name and e-mail stay null until then.
 * - one_time_invitations: the invitation of one one-time user to one business flow. Its link token and 16-character
 *   access code are stored only as SHA-256 and replaced on every re-send, so earlier links die; cancelling sets
 *   status 'cancelled', which also ends the guest's sessions (they are checked against it on every request).
 * - one_time_auth_codes: the 6-digit code mailed to prove the address (HMAC under the master key, 10 minutes).
 * - guest_sessions: a guest's sign-in to one invitation; refresh tokens stored hashed, rotated on every use.
 * - guest_term_consents: the terms of use a guest accepted, with when and from where.
 */
export async function up(knex: Knex): Promise<void> {
  const id = (t: Knex.CreateTableBuilder) => t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  const owner = (t: Knex.CreateTableBuilder) =>
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');

  await knex.schema.createTable('one_time_users', (t) => {
    id(t);
    owner(t);
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('name');
    t.text('email');
    t.text('status').notNullable().defaultTo('invited').checkIn(['invited', 'registered']);
    t.text('locale').notNullable().defaultTo('ja').checkIn(['ja', 'en']);
    // Wrong 6-digit codes (address proof and signing codes alike) lock the guest for 15 minutes after 5.
    t.integer('code_failures').notNullable().defaultTo(0);
    t.timestamp('code_locked_until', { useTz: true });
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamp('registered_at', { useTz: true });
    t.timestamps(true, true);
    t.index(['workspace_id']);
  });
  await knex.raw(
    'CREATE UNIQUE INDEX one_time_users_workspace_email ON one_time_users (workspace_id, lower(email)) WHERE email IS NOT NULL',
  );

  await knex.schema.alterTable('workspace_participants', (t) => {
    t.uuid('one_time_user_id').references('one_time_users.id').onDelete('CASCADE');
    t.unique(['workspace_id', 'one_time_user_id']);
  });
  await knex.raw('ALTER TABLE workspace_participants DROP CONSTRAINT IF EXISTS workspace_participants_kind_check');
  await knex.raw('ALTER TABLE workspace_participants DROP CONSTRAINT workspace_participants_kind');
  await knex.raw(
    `ALTER TABLE workspace_participants ADD CONSTRAINT workspace_participants_kind CHECK (
       (kind = 'group' AND group_id IS NOT NULL AND partner_organization_id IS NULL AND one_time_user_id IS NULL) OR
       (kind = 'organization' AND partner_organization_id IS NOT NULL AND group_id IS NULL AND one_time_user_id IS NULL) OR
       (kind = 'one_time_user' AND one_time_user_id IS NOT NULL AND group_id IS NULL AND partner_organization_id IS NULL))`,
  );

  // A task of a one-time user keeps its assignee: the one-time user is not deleted while tasks name them.
  await knex.schema.alterTable('tasks', (t) => {
    t.foreign('one_time_user_id').references('one_time_users.id').onDelete('RESTRICT');
    t.index(['one_time_user_id', 'status']);
    t.uuid('completed_by_one_time_user_id').references('one_time_users.id').onDelete('SET NULL');
  });
  await knex.schema.alterTable('document_events', (t) => {
    t.uuid('actor_one_time_user_id').references('one_time_users.id').onDelete('SET NULL');
  });

  await knex.schema.createTable('one_time_invitations', (t) => {
    id(t);
    owner(t);
    t.uuid('one_time_user_id').notNullable().references('one_time_users.id').onDelete('CASCADE');
    t.uuid('business_flow_id').notNullable().references('business_flows.id').onDelete('CASCADE');
    t.text('channel').notNullable().checkIn(['email', 'qr']);
    t.text('status').notNullable().defaultTo('invited').checkIn(['invited', 'registered', 'cancelled']);
    // SHA-256 of the personal link's token and of the 16-character access code; null until sent (QR) or once dead.
    t.text('link_token_hash').unique();
    t.text('access_code_hash').unique();
    t.timestamp('link_expires_at', { useTz: true });
    // SHA-256 of the token inside the QR code, valid for minutes; null when none is open.
    t.text('qr_token_hash').unique();
    t.timestamp('qr_expires_at', { useTz: true });
    t.integer('sent_count').notNullable().defaultTo(0);
    t.timestamp('last_sent_at', { useTz: true });
    t.uuid('invited_by').references('users.id').onDelete('SET NULL');
    t.timestamp('registered_at', { useTz: true });
    t.timestamp('cancelled_at', { useTz: true });
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.unique(['one_time_user_id', 'business_flow_id']);
    t.index(['business_flow_id']);
  });

  await knex.schema.createTable('one_time_auth_codes', (t) => {
    id(t);
    t.uuid('invitation_id').notNullable().references('one_time_invitations.id').onDelete('CASCADE');
    t.text('code_hash').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['invitation_id', 'created_at']);
  });

  await knex.schema.createTable('guest_sessions', (t) => {
    id(t);
    owner(t);
    t.uuid('one_time_user_id').notNullable().references('one_time_users.id').onDelete('CASCADE');
    t.uuid('invitation_id').notNullable().references('one_time_invitations.id').onDelete('CASCADE');
    t.text('refresh_token_hash').notNullable().unique();
    // The hash of the refresh token this one replaced: presenting it again ends the session (a stolen token).
    t.text('previous_token_hash').unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.text('revoked_reason');
    t.text('ip');
    t.text('user_agent');
    t.index(['invitation_id']);
  });

  await knex.schema.createTable('guest_term_consents', (t) => {
    t.uuid('invitation_id').notNullable().references('one_time_invitations.id').onDelete('CASCADE');
    t.uuid('term_id').notNullable().references('terms.id');
    t.timestamp('accepted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('ip');
    t.text('user_agent');
    t.primary(['invitation_id', 'term_id']);
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
