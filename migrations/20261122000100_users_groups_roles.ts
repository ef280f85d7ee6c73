import type { Knex } from 'knex';

// Users get their administrative fields; groups, memberships, roles and role assignments arrive.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE users DROP CONSTRAINT users_status_check');
  await knex.raw(
    "ALTER TABLE users ADD CONSTRAINT users_status_check CHECK (status IN ('active', 'deactivated', 'deleted'))",
  );
  await knex.schema.alterTable('users', (t) => {
    t.jsonb('sub_emails').notNullable().defaultTo('[]');
    t.text('mobile_phone');
    t.text('system_link_id');
    // An administrator's lock; the throttle lock after failed sign-ins lives in sign_in_throttles.
    t.timestamp('locked_at', { useTz: true });
    // Mail to the address bounced; nothing is sent to it until an administrator unblocks it.
    t.timestamp('email_blocked_at', { useTz: true });
    // The pending invitation job: only the job with this id may set the temporary password.
    t.uuid('invitation_id');
    t.timestamp('invited_at', { useTz: true });
    t.timestamp('deleted_at', { useTz: true });
  });
  await knex.raw(
    'CREATE UNIQUE INDEX users_system_link_id_unique ON users (organization_id, system_link_id) ' +
      'WHERE system_link_id IS NOT NULL',
  );

  await knex.schema.createTable('groups', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('system_link_id');
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.unique(['organization_id', 'name']);
  });
  await knex.raw(
    'CREATE UNIQUE INDEX groups_system_link_id_unique ON groups (organization_id, system_link_id) ' +
      'WHERE system_link_id IS NOT NULL',
  );

  await knex.schema.createTable('group_members', (t) => {
    t.uuid('group_id').notNullable().references('groups.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.boolean('is_group_admin').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['group_id', 'user_id']);
    t.index(['user_id']);
  });

  await knex.schema.createTable('roles', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('system_link_id');
    // {"sign":{"execute":bool,"view":bool},"approve":{...},"read":{...}}; execute implies view.
    t.jsonb('task_permissions').notNullable();
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.unique(['organization_id', 'name']);
  });
  await knex.raw(
    'CREATE UNIQUE INDEX roles_system_link_id_unique ON roles (organization_id, system_link_id) ' +
      'WHERE system_link_id IS NOT NULL',
  );

  await knex.schema.createTable('user_roles', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('role_id').notNullable().references('roles.id').onDelete('CASCADE');
    t.primary(['user_id', 'role_id']);
    t.index(['role_id']);
  });

  // Organizations signed up before groups existed get one group holding every user, its owner as group admin.
  await knex.raw(`
    INSERT INTO groups (organization_id, name)
    SELECT o.id, o.name FROM organizations o
     WHERE NOT EXISTS (SELECT 1 FROM groups g WHERE g.organization_id = o.id)`);
  await knex.raw(`
    INSERT INTO group_members (group_id, user_id, is_group_admin)
    SELECT g.id, u.id, u.is_owner FROM users u JOIN groups g ON g.organization_id = u.organization_id
     WHERE u.status <> 'deleted'`);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
