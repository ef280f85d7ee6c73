import {
  addConnectionOptions,
  ask,
  CredentialStore,
  openSession,
  serverUrl,
  signInWithPassword,
  unwrap,
  usageError,
} from '../api.ts';
import type { CliCommand } from '../command.ts';

interface LoginOptions {
  url?: string;
  loginId?: string;
  password?: string;
  /** `--api-key <key>`, or `--api-key` alone (true): KEIYAKU_API_KEY, else asked. */
  apiKey?: string | true;
}

/** The key of `--api-key`: its value, then KEIYAKU_API_KEY, then a prompt without echo. */
async function apiKeyOf(option: string | true, env: NodeJS.ProcessEnv): Promise<string> {
  if (typeof option === 'string' && option) return option;
  if (env.KEIYAKU_API_KEY) return env.KEIYAKU_API_KEY;
  if (!process.stdin.isTTY) throw usageError('no terminal to ask on: pass --api-key <key> or set KEIYAKU_API_KEY');
  const key = (await ask('API key: ', { hidden: true })).trim();
  if (!key) throw usageError('an API key is required');
  return key;
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
      .option('--api-key [key]', 'store an API key instead of a session (default: KEIYAKU_API_KEY, else asked)')
      .action(async (options: LoginOptions) => {
        const env = process.env;
        const url = serverUrl(options.url, env);
        if (options.apiKey !== undefined) {
          const apiKey = await apiKeyOf(options.apiKey, env);
          // The key is checked (GET /me answers for any valid key) before it is kept.
          const session = await openSession({ url, env: { ...env, KEIYAKU_API_KEY: apiKey } });
          const me = unwrap(await session.client.GET('/me'));
          const store = new CredentialStore(env);
          store.saveApiKey(url, apiKey);
          output.out(`Stored the API key for ${url} (${me.data.attributes.name}; credentials: ${store.file})\n`);
          return;
        }
        const { loginId, password } = await credentials(options, env);
        const pair = await signInWithPassword(url, loginId, password, env);
        const store = new CredentialStore(env);
        store.save(url, pair);
        output.out(`Signed in to ${url} as ${loginId} (credentials: ${store.file})\n`);
      });
  },
};
