// The part of oidc-provider (no bundled types) the test provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface OidcContext {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string };
      params?: Record<string, unknown>;
      provider: { Grant: new (init: { clientId: string; accountId: string }) => Grant };
    };
  }
  interface Configuration {
    clients?: Record<string, unknown>[];
    claims?: Record<string, string[]>;
    features?: Record<string, unknown>;
    cookies?: { keys: string[] };
    findAccount?(
      ctx: OidcContext,
      sub: string,
    ): Promise<{ accountId: string; claims(): Promise<Record<string, unknown>> } | undefined>;
    loadExistingGrant?(ctx: OidcContext): Promise<Grant | undefined>;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: 'server_error', listener: (ctx: unknown, error: Error) => void): this;
  }
}
