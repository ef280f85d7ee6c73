import { addConnectionOptions, CliError, CredentialStore, openSession, serverUrl } from '../api.ts';
import type { CliCommand } from '../command.ts';

/** `keiyaku logout`: ends the stored session on the server and deletes its tokens. */
export const logoutCommand: CliCommand = {
  group: 'logout',
  groupDescription: 'Sign out and delete the stored session',
  register(command, output) {
    addConnectionOptions(command).action(async (options: { url?: string }) => {
      const env = process.env;
      const url = serverUrl(options.url, env);
      const store = new CredentialStore(env);
      if (store.getApiKey(url)) {
        // A key has no session to end: it is only forgotten here (revoke it in the organization settings).
        store.remove(url);
        output.out(`Removed the stored API key for ${url}\n`);
        return;
      }
      if (!store.get(url)) {
        output.out(`Not signed in to ${url}\n`);
        return;
      }
      try {
        // Only the stored session: environment credentials must not sign in just to sign out.
        const session = await openSession({ url, env: { ...env, KEIYAKU_LOGIN_ID: '', KEIYAKU_PASSWORD: '' } });
        const { response } = await session.client.DELETE('/auth');
        if (!response.ok && response.status !== 401) output.err(`keiyaku: the server answered ${response.status}\n`);
      } catch (error) {
        // An expired or revoked session is already over on the server; the local tokens still go.
        if (!(error instanceof CliError)) throw error;
      } finally {
        store.remove(url);
      }
      output.out(`Signed out of ${url}\n`);
    });
  },
};
