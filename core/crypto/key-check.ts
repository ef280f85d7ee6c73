/*
 * The master key check: a value derived from the master key (HMAC-SHA256 of a fixed label, never the key) is
 * stored on first start and compared on every start, so a service given the wrong key refuses to start instead of
 * answering 500 at every signature. A database from before the check existed is verified by opening one of the
 * secrets already sealed in it, then gets its value.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { ConfigError } from '../config.ts';
import { createSecrets, type SecretPurpose } from './secrets.ts';

const LABEL = 'keiyaku key check v1';

/** Where sealed secrets live, and under which purpose's key; any one of them proves the key on an upgrade. */
const SEALED_COLUMNS: { table: string; column: string; purpose: SecretPurpose }[] = [
  { table: 'service_keys', column: 'private_key_envelope', purpose: 'signing-secrets-at-rest' },
  { table: 'e_certificates', column: 'private_key_envelope', purpose: 'signing-secrets-at-rest' },
  { table: 'outgoing_messages', column: 'secret_params', purpose: 'outgoing-message-secrets' },
];

/** The configured master key is not the one the database's secrets were sealed with. */
export class MasterKeyMismatchError extends ConfigError {
  constructor(why: string) {
    super(
      `KEIYAKU_MASTER_KEY does not match the key this database was created with (${why}). ` +
        'Start the service with the master key the database was created with: the KEIYAKU_MASTER_KEY it ran with ' +
        'before, or, when none was set, the master.key file of its data folder (KEIYAKU_DATA_DIR).',
    );
  }
}

/** The key check value of a master key (hex). */
export function keyCheckValue(masterKey: Uint8Array): string {
  return createHmac('sha256', masterKey).update(LABEL).digest('hex');
}

function sameValue(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Compares the master key with the database's key check value, storing it on first start; throws
 * MasterKeyMismatchError when they differ. Run after the core migrations and before anything opens a secret.
 */
export async function verifyMasterKey(knex: Knex, masterKey: Uint8Array): Promise<'matched' | 'stored'> {
  const expected = keyCheckValue(masterKey);
  const stored = await knex('master_key_check').first('value');
  if (stored) {
    if (!sameValue(stored.value as string, expected)) throw new MasterKeyMismatchError('key check value mismatch');
    return 'matched';
  }
  await assertOpensStoredSecret(knex, masterKey);
  await knex('master_key_check').insert({ id: true, value: expected }).onConflict('id').ignore();
  // Another instance starting at the same moment may have stored its value first: it must be the same key.
  const winner = await knex('master_key_check').first('value');
  if (!winner || !sameValue(winner.value as string, expected)) {
    throw new MasterKeyMismatchError('key check value mismatch');
  }
  return 'stored';
}

async function assertOpensStoredSecret(knex: Knex, masterKey: Uint8Array): Promise<void> {
  for (const { table, column, purpose } of SEALED_COLUMNS) {
    const row = await knex(table).whereNotNull(column).first(column);
    if (!row) continue;
    try {
      createSecrets(masterKey, purpose).open(row[column] as Buffer);
    } catch {
      throw new MasterKeyMismatchError(`a secret stored in ${table} does not open with it`);
    }
    return;
  }
}
