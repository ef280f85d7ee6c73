import type { Knex } from 'knex';

/*
 * An e-certificate's revocation status as the service last found it (CRL or OCSP of its issuer, checked at
 * registration and before every signature): when and why the issuer revoked it, and when it was last checked.
 * A revoked certificate's status is invalid; registering a certificate again clears these.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('e_certificates', (t) => {
    t.timestamp('revoked_at', { useTz: true });
    t.text('revocation_reason');
    t.timestamp('revocation_checked_at', { useTz: true });
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
