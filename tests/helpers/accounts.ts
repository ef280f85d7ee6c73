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
