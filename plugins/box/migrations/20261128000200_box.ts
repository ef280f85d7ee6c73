import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // One Box account per organization. Access and refresh token are sealed together (context: the row id) and never
  // stored in clear; `refreshing_until` is the lease a worker holds while it spends the refresh token, so two
  // processes never spend the same one.
  await knex.schema.createTable('box_connections', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().unique().references('organizations.id').onDelete('CASCADE');
    t.binary('tokens_sealed');
    t.timestamp('access_expires_at', { useTz: true });
    t.timestamp('refreshing_until', { useTz: true });
    t.text('account_id');
    t.text('account_login');
    t.text('account_name');
    t.text('root_folder_id').notNullable().defaultTo('0');
    t.text('root_folder_name').notNullable().defaultTo('All Files');
    t.text('status').notNullable().defaultTo('connected').checkIn(['connected', 'auth_failed']);
    t.text('last_error_code');
    t.timestamp('last_error_at', { useTz: true });
    t.timestamp('last_upload_at', { useTz: true });
    // Set when the administrators were told of an authorization failure; cleared by a new connection.
    t.timestamp('auth_failure_notified_at', { useTz: true });
    t.uuid('connected_by').references('users.id').onDelete('SET NULL');
    t.timestamp('connected_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  // A started connection: the state is stored hashed, bound to the administrator who started it, usable once.
  await knex.schema.createTable('box_connect_attempts', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.binary('state_hash').notNullable().unique();
    t.text('redirect_uri').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
  // Box folders made (or found) for a workspace under the root folder and for a business flow under its workspace's.
  await knex.schema.createTable('box_folders', (t) => {
    t.uuid('connection_id').notNullable().references('box_connections.id').onDelete('CASCADE');
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('scope').notNullable().checkIn(['workspace', 'business_flow']);
    t.uuid('scope_id').notNullable();
    t.text('parent_folder_id').notNullable();
    t.text('box_folder_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.primary(['connection_id', 'scope', 'scope_id']);
  });
  // One upload per organization and document: sent on completion or by hand, retried by the job queue.
  await knex.schema.createTable('box_uploads', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.uuid('business_flow_id').notNullable();
    t.text('document_name').notNullable();
    t.text('status').notNullable().checkIn(['queued', 'uploading', 'done', 'failed']);
    t.text('trigger').notNullable().checkIn(['completion', 'manual']);
    t.text('error_code');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('box_folder_id');
    t.text('box_file_id_document');
    t.text('box_file_id_certificate');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('uploaded_at', { useTz: true });
    t.unique(['organization_id', 'document_id']);
    t.index(['organization_id', 'updated_at']);
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
