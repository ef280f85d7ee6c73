import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person the provider knows: the subject is what they type into its login form. */
export interface OidcAccount {
  email?: string;
  emailVerified?: boolean;
  name?: string;
}

/** A client registered at the provider (a Keiyaku organization's SSO settings use its id and secret). */
export interface OidcClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

/**
 * A real OpenID Connect provider for tests (`oidc-provider` with its development login form, on 127.0.0.1 and a
 * free port): any login and password sign in as the subject typed; consent is granted without a screen. Claims
 * follow the standard conformance (e-mail and name come from userinfo unless requested otherwise).
 */
export class OidcTestProvider {
  private constructor(
    readonly issuer: string,
    /** The accounts the provider knows, by subject: tests add to it at any time. */
    readonly accounts: Map<string, OidcAccount>,
    private readonly server: Server,
    readonly provider: Provider,
  ) {}

  static async start(clients: OidcClient[]): Promise<OidcTestProvider> {
    let handler: ((req: unknown, res: unknown) => void) | null = null;
    const server = createServer((req, res) => handler!(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const accounts = new Map<string, OidcAccount>();
    const provider = new Provider(issuer, {
      clients: clients.map((c) => ({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        redirect_uris: c.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      })),
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      features: { devInteractions: { enabled: true } },
      cookies: { keys: ['keiyaku-test-oidc-provider-cookie-key'] },
      async findAccount(_ctx, sub) {
        return {
          accountId: sub,
          async claims() {
            const account = accounts.get(sub) ?? {};
            return {
              sub,
              ...(account.email !== undefined ? { email: account.email } : {}),
              email_verified: account.emailVerified ?? false,
              ...(account.name !== undefined ? { name: account.name } : {}),
            };
          },
        };
      },
      // Consent granted at once for what the client asks (no consent screen in tests).
      async loadExistingGrant(ctx) {
        const { client, session, params } = ctx.oidc;
        if (!client || !session?.accountId) return undefined;
        const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
        grant.addOIDCScope(String(params?.scope ?? 'openid'));
        await grant.save();
        return grant;
      },
    });
    provider.on('server_error', (_ctx, error) => console.error('oidc-provider server_error', error));
    handler = provider.callback() as never;
    return new OidcTestProvider(issuer, accounts, server, provider);
  }

  /**
   * Goes through the provider's login form as `login` (with a cookie jar, like a browser) from an authorization
   * URL, and returns the redirect back to the client: `code`, `state` and `iss` are its query parameters.
   */
  async signIn(authorizationUrl: string, login: string): Promise<URL> {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const keep = (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
      }
    };
    let url = new URL(authorizationUrl);
    let body: URLSearchParams | undefined;
    for (let hop = 0; hop < 12; hop += 1) {
      const response = await fetch(url, {
        method: body ? 'POST' : 'GET',
        body,
        headers: { cookie: cookieHeader() },
        redirect: 'manual',
      });
      keep(response);
      body = undefined;
      const location = response.headers.get('location');
      if (location) {
        const next = new URL(location, url);
        if (next.origin !== this.issuer) return next; // back to the client
        url = next;
        continue;
      }
      const html = await response.text();
      if (response.status !== 200) throw new Error(`provider answered ${response.status}: ${html.slice(0, 300)}`);
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no form at ${url.href}: ${html.slice(0, 300)}`);
      url = new URL(action.replace(/&amp;/g, '&'), url);
      body = /name="login"/.test(html)
        ? new URLSearchParams({ prompt: 'login', login, password: 'any-password' })
        : new URLSearchParams({ prompt: 'consent' });
    }
    throw new Error('the provider never redirected back');
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
