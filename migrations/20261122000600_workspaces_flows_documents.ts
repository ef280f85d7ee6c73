import type { Knex } from 'knex';

/*
 * The everyday work: workspaces shared with own groups and partner organizations, business flows inside them,
 * documents (with immutable file versions) inside flows, and the ordered tasks of each document; plus the document
 * and business flow templates they can be created from. Every row carries the organization that owns the
 * workspace (`organization_id`), so tenancy scoping works as everywhere else; partners reach rows only through
 * `workspace_participants`.
 */
export async function up(knex: Knex): Promise<void> {
  const id = (t: Knex.CreateTableBuilder) => t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  const owner = (t: Knex.CreateTableBuilder) =>
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');

  await knex.schema.createTable('workspaces', (t) => {
    id(t);
    owner(t);
    t.text('system_link_id');
    t.text('name').notNullable();
    t.text('description');
    t.boolean('mail_notification').notNullable().defaultTo(true);
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.unique(['organization_id', 'system_link_id']);
    t.index(['organization_id', 'created_at']);
  });

  // An own group or a partner organization taking part in a workspace.
  // is_public: the participant sees every business flow of the workspace (otherwise only those with its tasks);
  // is_editable: it may create and edit flows and upload documents (otherwise it views and runs its tasks).
  await knex.schema.createTable('workspace_participants', (t) => {
    id(t);
    owner(t);
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['group', 'organization']);
    // RESTRICT: core/modules/groups/usages.ts refuses to delete a group that takes part in a workspace.
    t.uuid('group_id').references('groups.id').onDelete('RESTRICT');
    t.uuid('partner_organization_id').references('organizations.id').onDelete('CASCADE');
    t.boolean('is_public').notNullable().defaultTo(true);
    t.boolean('is_editable').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['workspace_id', 'group_id']);
    t.unique(['workspace_id', 'partner_organization_id']);
    t.index(['group_id']);
    t.index(['partner_organization_id']);
  });
  await knex.raw(
    `ALTER TABLE workspace_participants ADD CONSTRAINT workspace_participants_kind CHECK (
       (kind = 'group' AND group_id IS NOT NULL AND partner_organization_id IS NULL) OR
       (kind = 'organization' AND partner_organization_id IS NOT NULL AND group_id IS NULL))`,
  );

  await knex.schema.createTable('document_templates', (t) => {
    id(t);
    owner(t);
    t.text('system_link_id');
    t.text('name').notNullable();
    t.text('document_type').notNullable().defaultTo('contract');
    // [{ order, type, roleId, assignee: { kind, groupId | organizationId }, required, templateId }]
    t.jsonb('tasks').notNullable().defaultTo('[]');
    // [{ propertyId, value }] applied to documents created from the template
    t.jsonb('properties').notNullable().defaultTo('[]');
    // Reading positions (issue [5/5] and later); kept as given.
    t.jsonb('reading_positions').notNullable().defaultTo('[]');
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.unique(['organization_id', 'system_link_id']);
    t.unique(['organization_id', 'name']);
  });

  await knex.schema.createTable('business_flow_templates', (t) => {
    id(t);
    owner(t);
    t.text('system_link_id');
    t.text('name').notNullable();
    t.text('comment');
    t.boolean('auto_complete').notNullable().defaultTo(true);
    t.jsonb('properties').notNullable().defaultTo('[]');
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.unique(['organization_id', 'system_link_id']);
    t.unique(['organization_id', 'name']);
  });

  await knex.schema.createTable('business_flow_template_documents', (t) => {
    id(t);
    owner(t);
    t.uuid('business_flow_template_id').notNullable().references('business_flow_templates.id').onDelete('CASCADE');
    t.uuid('document_template_id').notNullable().references('document_templates.id').onDelete('RESTRICT');
    // The document's template ID within the flow template: unique there.
    t.text('template_id').notNullable();
    t.integer('position').notNullable();
    t.unique(['business_flow_template_id', 'template_id']);
    t.index(['document_template_id']);
  });

  await knex.schema.createTable('business_flows', (t) => {
    id(t);
    owner(t);
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('RESTRICT');
    t.text('system_link_id');
    t.text('name').notNullable();
    t.text('status')
      .notNullable()
      .defaultTo('in_progress')
      .checkIn(['in_progress', 'complete', 'incomplete', 'cancelled']);
    t.text('comment');
    t.boolean('auto_complete').notNullable().defaultTo(true);
    t.uuid('business_flow_template_id').references('business_flow_templates.id').onDelete('SET NULL');
    t.text('cancel_comment');
    t.timestamp('completed_at', { useTz: true });
    t.timestamp('cancelled_at', { useTz: true });
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.unique(['organization_id', 'system_link_id']);
    t.index(['organization_id', 'created_at']);
    t.index(['organization_id', 'status', 'created_at']);
    t.index(['workspace_id', 'created_at']);
  });

  await knex.schema.createTable('documents', (t) => {
    id(t);
    owner(t);
    t.uuid('business_flow_id').notNullable().references('business_flows.id').onDelete('CASCADE');
    t.text('system_link_id');
    t.text('name').notNullable();
    t.text('document_type').notNullable().defaultTo('contract');
    t.text('status')
      .notNullable()
      .defaultTo('in_progress')
      .checkIn(['in_progress', 'completed', 'remanded', 'cancelled']);
    t.text('cancel_comment');
    // The order whose tasks are executable now (null once completed or cancelled).
    t.integer('current_order');
    t.uuid('document_template_id').references('document_templates.id').onDelete('SET NULL');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('completed_at', { useTz: true });
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.unique(['organization_id', 'system_link_id']);
    t.index(['business_flow_id', 'created_at']);
    t.index(['organization_id', 'status', 'created_at']);
  });

  // Every uploaded file of a document; a re-upload adds a version and keeps the old ones. Blobs are addressed by
  // SHA-256 in the file store, so two versions with the same bytes share one blob.
  await knex.schema.createTable('document_versions', (t) => {
    id(t);
    owner(t);
    t.uuid('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.text('file_name').notNullable();
    t.text('content_type').notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.text('sha256').notNullable();
    t.integer('page_count');
    t.text('scan_status').notNullable().defaultTo('pending').checkIn(['pending', 'clean', 'malicious', 'failed']);
    t.text('scan_engine');
    t.text('scan_detail');
    t.timestamp('scanned_at', { useTz: true });
    t.uuid('uploaded_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['document_id', 'version']);
    t.index(['sha256']);
  });

  await knex.schema.createTable('tasks', (t) => {
    id(t);
    owner(t);
    t.uuid('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    // Parallel tasks share an order; orders run from 1 upwards.
    t.integer('task_order').notNullable();
    t.text('type').notNullable().checkIn(['sign', 'approve', 'read']);
    t.uuid('role_id').references('roles.id').onDelete('RESTRICT');
    t.text('assignee_kind').notNullable().checkIn(['group', 'organization', 'one_time_user']);
    t.uuid('group_id').references('groups.id').onDelete('RESTRICT');
    t.uuid('partner_organization_id').references('organizations.id').onDelete('CASCADE');
    t.uuid('one_time_user_id');
    t.boolean('required').notNullable().defaultTo(true);
    t.text('template_id');
    t.text('status')
      .notNullable()
      .defaultTo('waiting')
      .checkIn(['waiting', 'active', 'completed', 'skipped', 'cancelled']);
    t.uuid('completed_by').references('users.id').onDelete('SET NULL');
    t.timestamp('completed_at', { useTz: true });
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.unique(['document_id', 'template_id']);
    t.index(['document_id', 'task_order']);
    t.index(['group_id', 'status']);
    t.index(['partner_organization_id', 'status']);
  });

  // What happened to a document, for its history and for reasons: uploads, task steps, remands, cancels.
  await knex.schema.createTable('document_events', (t) => {
    id(t);
    owner(t);
    t.uuid('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.uuid('task_id').references('tasks.id').onDelete('SET NULL');
    t.text('kind').notNullable();
    t.text('reason');
    t.integer('to_order');
    t.uuid('actor_user_id').references('users.id').onDelete('SET NULL');
    t.uuid('actor_organization_id').references('organizations.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['document_id', 'created_at']);
  });

  // Property range and equality search (business flow list, document list).
  await knex.schema.alterTable('property_values', (t) => {
    t.index(['property_id', 'number_value']);
    t.index(['property_id', 'date_value']);
    t.index(['property_id', 'option_id']);
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
