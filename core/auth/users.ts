import type { Knex } from 'knex';

/** The columns sign-in and password changes need. */
export interface AuthUser {
  id: string;
  organization_id: string;
  login_id: string;
  name: string;
  email: string;
  locale: 'ja' | 'en';
  password_hash: string;
  password_changed_at: Date;
  must_change_password: boolean;
  temporary_password_expires_at: Date | null;
  status: 'active' | 'deactivated' | 'deleted';
  /** Set while an administrator has locked the account (lockUser). */
  locked_at: Date | null;
}

const COLUMNS = [
  'id',
  'organization_id',
  'login_id',
  'name',
  'email',
  'locale',
  'password_hash',
  'password_changed_at',
  'must_change_password',
  'temporary_password_expires_at',
  'status',
  'locked_at',
];

export async function findUserByLoginId(knex: Knex, loginId: string): Promise<AuthUser | null> {
  // A service user (an API key's, core/modules/api-keys) is no one a password can sign in as.
  return (await knex('users').where({ login_id: loginId, kind: 'person' }).first(COLUMNS)) ?? null;
}

export async function findUserById(knex: Knex, id: string): Promise<AuthUser | null> {
  // Service users (API keys) never sign in: to every caller here one is no user.
  return (await knex('users').where({ id, kind: 'person' }).first(COLUMNS)) ?? null;
}

/** Stores a new password hash, keeps it in the history and clears the temporary-password state. */
export async function storePassword(trx: Knex.Transaction, userId: string, hash: string, now: Date): Promise<void> {
  await trx('users')
    .where({ id: userId })
    .update({
      password_hash: hash,
      password_changed_at: now,
      must_change_password: false,
      temporary_password_expires_at: null,
      updated_at: now,
      lock_version: trx.raw('lock_version + 1'),
    });
  await trx('password_history').insert({ user_id: userId, password_hash: hash, created_at: now });
}
