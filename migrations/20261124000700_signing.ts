import type { Knex } from 'knex';

/*
 * Signing: the keys the service holds (local CA, built-in TSA, business-operator key), users' e-certificates and
 * their agents, seal images, two-factor signing codes, e-mail arrival confirmation, what each document revision is
 * (upload or signature), and the long-term (B-LTA) documents whose timestamps must be renewed.
 * Private keys are stored only as AES-256-GCM envelopes under the master key (core/signing/secrets.ts).
 */
export async function up(knex: Knex): Promise<void> {
  const id = (t: Knex.CreateTableBuilder) => t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  const owner = (t: Knex.CreateTableBuilder) =>
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');

  // Keys of the service itself, by purpose: 'local-ca' (embedded default root), 'local-tsa' (built-in TSA),
  // 'operator' (the business-operator signing key when no PKCS#12 is configured). One row per purpose, replaced
  // (never edited) when renewed: the newest row of a purpose is the one in use.
  await knex.schema.createTable('service_keys', (t) => {
    id(t);
    t.text('purpose').notNullable().checkIn(['local-ca', 'local-tsa', 'operator']);
    t.binary('certificate').notNullable();
    // DER certificates from the issuer up, signer excluded.
    t.specificType('chain', 'bytea[]').notNullable().defaultTo('{}');
    t.binary('private_key_envelope').notNullable();
    t.timestamp('not_before', { useTz: true }).notNullable();
    t.timestamp('not_after', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['purpose', 'created_at']);
  });

  // A user's own e-certificate (PKCS#12 upload): one per user; re-registering replaces it.
  await knex.schema.createTable('e_certificates', (t) => {
    id(t);
    owner(t);
    t.uuid('user_id').notNullable().unique().references('users.id').onDelete('CASCADE');
    t.binary('certificate').notNullable();
    t.specificType('chain', 'bytea[]').notNullable().defaultTo('{}');
    t.binary('private_key_envelope').notNullable();
    // argon2 hash of the PIN (the PKCS#12 password): asked again at every signature.
    t.text('pin_hash').notNullable();
    t.integer('pin_failures').notNullable().defaultTo(0);
    t.timestamp('pin_locked_until', { useTz: true });
    t.text('subject').notNullable();
    t.text('issuer').notNullable();
    t.text('serial_number').notNullable();
    t.text('fingerprint_sha256').notNullable();
    t.text('key_algorithm').notNullable();
    t.timestamp('not_before', { useTz: true }).notNullable();
    t.timestamp('not_after', { useTz: true }).notNullable();
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
  });

  // Agents (proxy signers): agent_user_id may sign with principal_user_id's e-certificate.
  await knex.schema.createTable('e_certificate_agents', (t) => {
    id(t);
    owner(t);
    t.uuid('principal_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('agent_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['principal_user_id', 'agent_user_id']);
    t.index(['agent_user_id']);
  });

  // Seal (sign) images managed per user; the image bytes are a blob in the file store.
  await knex.schema.createTable('seal_images', (t) => {
    id(t);
    owner(t);
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('sha256').notNullable();
    t.text('content_type').notNullable().checkIn(['image/png', 'image/jpeg', 'image/gif']);
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'created_at']);
  });

  // Six-digit two-factor codes for signing (business-operator types with a code), by SMS or e-mail.
  await knex.schema.createTable('signing_codes', (t) => {
    id(t);
    owner(t);
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('task_id').notNullable().references('tasks.id').onDelete('CASCADE');
    t.text('channel').notNullable().checkIn(['sms', 'email']);
    t.text('destination').notNullable();
    t.text('code_hash').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('consumed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'task_id', 'created_at']);
  });

  await knex.schema.alterTable('users', (t) => {
    // The address confirmed by the arrival-confirmation link; signing needs it to equal the current e-mail.
    t.text('email_confirmed_address');
    t.timestamp('email_confirmed_at', { useTz: true });
    // Wrong signing codes lock signing for about 15 minutes.
    t.integer('signing_code_failures').notNullable().defaultTo(0);
    t.timestamp('signing_locked_until', { useTz: true });
  });

  await knex.schema.createTable('email_confirmations', (t) => {
    id(t);
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('token_hash').notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });

  await knex.schema.alterTable('tasks', (t) => {
    // The signature type of a sign task (a registered signature-type plugin); null for approve and read.
    t.text('signature_type');
    // Two-factor code for business-operator types: none, sms or email.
    t.text('two_factor').notNullable().defaultTo('none').checkIn(['none', 'sms', 'email']);
  });

  await knex.schema.alterTable('document_versions', (t) => {
    // upload: a file someone uploaded; signature / timestamp / ltv: a revision the signing engine appended.
    t.text('kind').notNullable().defaultTo('upload').checkIn(['upload', 'signature', 'timestamp', 'ltv']);
    t.uuid('task_id').references('tasks.id').onDelete('SET NULL');
    t.text('signature_type');
    t.text('pades_level');
  });

  // Documents holding a B-LTA revision: the renewal job re-timestamps them before the last timestamp's TSA
  // certificate expires.
  await knex.schema.createTable('long_term_documents', (t) => {
    t.uuid('document_id').primary().references('documents.id').onDelete('CASCADE');
    owner(t);
    t.timestamp('last_timestamp_at', { useTz: true }).notNullable();
    t.timestamp('timestamp_not_after', { useTz: true }).notNullable();
    t.timestamp('next_renewal_at', { useTz: true }).notNullable();
    t.timestamp('last_verified_at', { useTz: true });
    t.boolean('last_verified_valid');
    t.integer('renewal_failures').notNullable().defaultTo(0);
    t.text('last_error');
    t.timestamps(true, true);
    t.index(['next_renewal_at']);
  });

  // Who signed from where: the ledger row keeps the request's IP address.
  await knex.schema.alterTable('sign_records', (t) => {
    t.text('ip_address');
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
