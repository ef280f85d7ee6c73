import { hashPassword } from '../../core/auth/passwords.ts';
import type { Plan } from '../../core/http/context.ts';
import type { TestApp } from './app.ts';

export const PASSWORD = 'correct-horse1';

let counter = 0;

/** A unique user ID for this test process. */
export function uniqueLoginId(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

export async function currentTermsId(app: TestApp): Promise<string> {
  const { body } = await app.api.call('getCurrentTerms');
  return body.data.id;
}

/** Signs an organization up through the API; returns its ids and the owner's credentials. */
export async function signUpOrganization(app: TestApp, overrides: Record<string, unknown> = {}) {
  const loginId = (overrides.loginId as string) ?? uniqueLoginId('owner');
  const attributes = {
    organizationName: '株式会社テスト',
    loginId,
    userName: '山田 太郎',
    email: `${loginId}@example.com`,
    password: PASSWORD,
    passwordConfirmation: PASSWORD,
    acceptTermId: await currentTermsId(app),
    ...overrides,
  };
  const response = await app.api.call('signUp', { body: { data: { type: 'SignUp', attributes } } });
  if (response.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(response.body)}`);
  return {
    organizationId: response.body.data.id as string,
    ownerId: response.body.data.relationships.owner.data.id as string,
    loginId,
    password: attributes.password as string,
    email: attributes.email as string,
  };
}

export function signInBody(loginId: string, password: string, acceptTermId?: string) {
  return { data: { type: 'Auth', attributes: { loginId, password, ...(acceptTermId ? { acceptTermId } : {}) } } };
}

/** Signs in and returns the token pair (fails the test on anything but 201). */
export async function signIn(app: TestApp, loginId: string, password = PASSWORD, headers?: Record<string, string>) {
  const response = await app.api.call('signIn', { body: signInBody(loginId, password), headers });
  if (response.status !== 201) throw new Error(`sign-in failed: ${JSON.stringify(response.body)}`);
  return response.body.data.attributes as { authorizationToken: string; refreshToken: string };
}

/**
 * Signs an organization up and signs its owner in; returns what {@link signUpOrganization} returns plus the owner's
 * access `token`.
 *
 * @param options - `plan`, when given, is written to `organizations.plan` directly before the sign-in (plan changes
 *   through the API have tests of their own); `signInHeaders` go with the owner's sign-in (such as `x-forwarded-for`);
 *   any other key overrides a sign-up attribute, as in {@link signUpOrganization}.
 */
export async function signedInOwner(
  app: TestApp,
  {
    plan,
    signInHeaders,
    ...signUpOverrides
  }: { plan?: Plan; signInHeaders?: Record<string, string> } & Record<string, unknown> = {},
) {
  const org = await signUpOrganization(app, signUpOverrides);
  if (plan) await app.service.deps.knex('organizations').where({ id: org.organizationId }).update({ plan });
  const { authorizationToken: token } = await signIn(app, org.loginId, org.password, signInHeaders);
  return { ...org, token };
}

/** The id of the organization's first group: the one sign-up created. */
export async function firstGroupId(app: TestApp, organizationId: string): Promise<string> {
  const group = await app.service.deps
    .knex('groups')
    .where({ organization_id: organizationId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .first('id');
  if (!group) throw new Error(`organization ${organizationId} has no group`);
  return group.id;
}

/**
 * Writes a user of the organization straight into the database and returns the user's login ID.
 *
 * Faster than creating the user through the API: no invitation job or mail, and the password is {@link PASSWORD}
 * at once. The user joins the organization's first group (every user belongs to a group) as an ordinary member.
 * Without `columns` the user is neither an administrator nor due a password change.
 *
 * @param columns - `users` columns to set or override, such as `{ is_admin: true }` or `{ must_change_password: true }`.
 */
export async function insertUser(
  app: TestApp,
  organizationId: string,
  columns: Record<string, unknown> = {},
): Promise<string> {
  const knex = app.service.deps.knex;
  const loginId = uniqueLoginId('member');
  const [user] = await knex('users')
    .insert({
      organization_id: organizationId,
      login_id: loginId,
      name: 'メンバー',
      email: `${loginId}@example.com`,
      password_hash: await hashPassword(PASSWORD),
      ...columns,
    })
    .returning('id');
  await knex('group_members').insert({ group_id: await firstGroupId(app, organizationId), user_id: user.id });
  return (columns.login_id as string | undefined) ?? loginId;
}

/**
 * Writes a user with {@link insertUser}, signs them in accepting the current terms of use, and returns their access
 * token. Fails on anything but 201.
 */
export async function memberToken(
  app: TestApp,
  organizationId: string,
  columns: Record<string, unknown> = {},
): Promise<string> {
  return signInMember(app, await insertUser(app, organizationId, columns));
}

/** Signs a user written by {@link insertUser} in, accepting the current terms of use; returns the access token. */
async function signInMember(app: TestApp, loginId: string): Promise<string> {
  const response = await app.api.call('signIn', { body: signInBody(loginId, PASSWORD, await currentTermsId(app)) });
  if (response.status !== 201) throw new Error(`member sign-in failed: ${JSON.stringify(response.body)}`);
  return response.body.data.attributes.authorizationToken as string;
}

export interface TestUser {
  id: string;
  token: string;
  email: string;
}

/**
 * A user written with {@link insertUser} who is a member of exactly `groupIds` (none when empty) and holds `roleIds`,
 * signed in.
 */
export async function userIn(
  app: TestApp,
  organizationId: string,
  groupIds: string[],
  roleIds: string[] = [],
  columns: Record<string, unknown> = {},
): Promise<TestUser> {
  const { knex } = app.service.deps;
  const loginId = await insertUser(app, organizationId, columns);
  const user = await knex('users').where({ login_id: loginId }).first('id', 'email');
  await knex('group_members').where({ user_id: user.id }).delete();
  if (groupIds.length) await knex('group_members').insert(groupIds.map((group_id) => ({ group_id, user_id: user.id })));
  if (roleIds.length) await knex('user_roles').insert(roleIds.map((role_id) => ({ role_id, user_id: user.id })));
  return { id: user.id, token: await signInMember(app, loginId), email: user.email };
}
