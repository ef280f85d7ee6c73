import type { ApiRouter } from '../contract/router.ts';
import type { AccountRecovery } from './recovery.ts';
import type { Sessions, TokenPair } from './sessions.ts';
import type { SignIn } from './sign-in.ts';

const authBody = (pair: TokenPair) => ({ data: { type: 'Auth', attributes: pair } });

/** Binds the sign-in, session and account-recovery operations. */
export function authRoutes(api: ApiRouter, signIn: SignIn, sessions: Sessions, recovery: AccountRecovery): void {
  api.operation('signIn', async ({ body, req }) => ({
    body: authBody(await signIn.signIn(body.data.attributes, req)),
  }));

  api.operation('refreshAuth', async ({ body, req }) => ({
    body: authBody(await sessions.refresh(body.data.attributes, req)),
  }));

  api.operation('signOut', async ({ principal, req }) => {
    await signIn.signOut(principal, req);
    return { status: 204 };
  });

  api.operation('changePasswordAndSignIn', async ({ body, req }) => ({
    body: authBody(await signIn.changePasswordAndSignIn(body.data.attributes, req)),
  }));

  api.operation('requestPasswordReset', async ({ body, req }) => {
    await recovery.requestPasswordReset(body.data.attributes, req);
    return { status: 202 };
  });

  api.operation('verifyPasswordResetToken', async ({ body }) => {
    await recovery.verifyResetToken(body.data.attributes.token);
    return { status: 204 };
  });

  api.operation('resetPassword', async ({ body, req }) => {
    await recovery.resetPassword(body.data.attributes, req);
    return { status: 204 };
  });

  api.operation('requestUserIdReminder', async ({ body, req }) => {
    await recovery.remindUserId(body.data.attributes, req);
    return { status: 202 };
  });
}
