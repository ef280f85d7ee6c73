import { addConnectionOptions, ask, CredentialStore, serverUrl, signInWithPassword, usageError } from '../api.ts';
import type { CliCommand } from '../command.ts';

interface LoginOptions {
  url?: string;
  loginId?: string;
  password?: string;
}

/** Where the user ID and password come from: options, then KEIYAKU_LOGIN_ID / KEIYAKU_PASSWORD, then a prompt. */
async function credentials(
  options: LoginOptions,
  env: NodeJS.ProcessEnv,
): Promise<{ loginId: string; password: string }> {
  let loginId = options.loginId ?? env.KEIYAKU_LOGIN_ID;
  let password = options.password ?? env.KEIYAKU_PASSWORD;
  if ((!loginId || !password) && !process.stdin.isTTY) {
    throw usageError(
      'no terminal to ask on: pass --login-id and --password, or set KEIYAKU_LOGIN_ID and KEIYAKU_PASSWORD',
    );
  }
  loginId ||= (await ask('User ID: ')).trim();
  password ||= await ask('Password: ', { hidden: true });
  if (!loginId || !password) throw usageError('a user ID and a password are required');
  return { loginId, password };
}

/** `keiyaku login`: signs in and keeps the token pair in the credentials file for later commands. */
export const loginCommand: CliCommand = {
  group: 'login',
  groupDescription: 'Sign in and store the session for later commands',
  register(command, output) {
    addConnectionOptions(command)
      .option('--login-id <id>', 'user ID (default: KEIYAKU_LOGIN_ID, else asked)')
      .option('--password <password>', 'password (default: KEIYAKU_PASSWORD, else asked without echo)')
      .action(async (options: LoginOptions) => {
        const env = process.env;
        const url = serverUrl(options.url, env);
        const { loginId, password } = await credentials(options, env);
        const pair = await signInWithPassword(url, loginId, password, env);
        const store = new CredentialStore(env);
        store.save(url, pair);
        output.out(`Signed in to ${url} as ${loginId} (credentials: ${store.file})\n`);
      });
  },
};
