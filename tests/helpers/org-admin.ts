import type { TestApp } from './app.ts';
import { currentTermsId, firstGroupId, PASSWORD, signedInOwner, signInBody, uniqueLoginId } from './accounts.ts';
import { recipientOf, waitForMail } from './mail.ts';

export const NO_TASKS = {
  sign: { execute: false, view: false },
  approve: { execute: false, view: false },
  read: { execute: false, view: false },
};

/** A signed-up organization, its owner's token and the default group sign-up created. */
export async function adminSession(app: TestApp, overrides: Record<string, unknown> = {}) {
  const session = await signedInOwner(app, overrides);
  return { ...session, defaultGroupId: await firstGroupId(app, session.organizationId) };
}

export type AdminSession = Awaited<ReturnType<typeof adminSession>>;

/** Creates a group through the API and returns its id. */
export async function createGroup(app: TestApp, token: string, name: string, systemLinkId?: string) {
  const response = await app.api.call('createGroup', {
    token,
    body: { data: { type: 'Group', attributes: { name, ...(systemLinkId ? { systemLinkId } : {}) } } },
  });
  if (response.status !== 201) throw new Error(`createGroup failed: ${JSON.stringify(response.body)}`);
  return response.body.data.id as string;
}

export function userBody(attributes: Record<string, unknown>) {
  return { data: { type: 'User', attributes } };
}

/** Creates a user through the API (201 expected) and returns the response's resource. */
export async function createUser(app: TestApp, token: string, groupIds: string[], extra: Record<string, unknown> = {}) {
  const loginId = uniqueLoginId('member');
  const response = await app.api.call('createUser', {
    token,
    body: userBody({ loginId, name: 'メンバー 花子', email: `${loginId}@example.com`, groupIds, ...extra }),
  });
  if (response.status !== 201) throw new Error(`createUser failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; attributes: Record<string, any> };
}

/** Waits for the invitation mail to an address and returns the temporary password it carries. */
export async function temporaryPasswordOf(app: TestApp, email: string, notIn: string[] = []) {
  const mail = await waitForMail(app, (m) => {
    if (!recipientOf(m).includes(email) || !/仮パスワード|Temporary password/.test(m.text ?? '')) return false;
    const password = /(?:仮パスワード|Temporary password): (\S+)/.exec(m.text ?? '')?.[1];
    return Boolean(password && !notIn.includes(password));
  });
  return /(?:仮パスワード|Temporary password): (\S+)/.exec(mail.text ?? '')![1]!;
}

/** Creates a user, completes the first password change, and returns their login ID and token. */
export async function activeMember(
  app: TestApp,
  token: string,
  groupIds: string[],
  extra: Record<string, unknown> = {},
) {
  const user = await createUser(app, token, groupIds, extra);
  const loginId = user.attributes.loginId as string;
  const temporary = await temporaryPasswordOf(app, user.attributes.email);
  const changed = await app.api.call('changePasswordAndSignIn', {
    body: {
      data: {
        type: 'PasswordChange',
        attributes: {
          loginId,
          currentPassword: temporary,
          password: PASSWORD,
          passwordConfirmation: PASSWORD,
          acceptTermId: await currentTermsId(app),
        },
      },
    },
  });
  if (changed.status !== 201) throw new Error(`first password change failed: ${JSON.stringify(changed.body)}`);
  return { id: user.id, loginId, token: changed.body.data.attributes.authorizationToken as string };
}

/** The newest operation log row of an action on a target. */
export function lastLog(app: TestApp, action: string, targetId: string) {
  return app.service.deps.knex('operation_logs').where({ action, target_id: targetId }).orderBy('id', 'desc').first();
}

export { PASSWORD, signInBody, uniqueLoginId };
