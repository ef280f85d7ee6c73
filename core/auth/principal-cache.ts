/*
 * A short-lived in-process cache of what every signed-in request reads first: the principal of a session (user,
 * organization, plan, IP allow list) and the body of GET /me. Without it each request costs its queries before any
 * work (measured: /me at 0.11× the req/s of /healthz on PostgreSQL, four queries a request).
 *
 * Correctness comes from PostgreSQL, not from the clock: triggers (migrations/20261128005000_principal_notifications.ts)
 * tell every change on the channel `keiyaku_principal` as its transaction commits, and each process listens on a
 * connection of its own and drops what the change touches. The cache serves entries only while that connection
 * listens: when it fails everything cached is dropped and requests go to the database until it listens again.
 * An ended session is also dropped in this process the moment its transaction commits (Sessions.revoke), so a
 * sign-out answered here is never followed here by a request the old session passes; in another process the
 * window is the notification's delivery (well under a millisecond on one host). The time-to-live bounds what a lost
 * notification could cost; the embedded PGlite (one process, no listener) runs without the cache.
 */
import type { Knex } from 'knex';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Principal } from '../http/context.ts';

export const PRINCIPAL_CHANNEL = 'keiyaku_principal';
/** How long an entry may be served after it was read. */
const TTL_MS = 10_000;
/** Entries beyond this many are dropped oldest first (a few hundred bytes each). */
const MAX_ENTRIES = 20_000;
const RECONNECT_MS = 1_000;
/**
 * A write this process sends to a table the cache is made of (an ended session: its revoked_at). Seen as the statement
 * is sent, before its commit: sequential requests of this process never meet what it changed, without waiting for
 * the notification; requests running at that moment are covered by the notification at commit.
 */
export const CACHED_TABLE_WRITE =
  /^\s*(?:insert\s+into|update|delete\s+from)\s+"?(?:users|organizations|group_members|user_roles|ip_restrictions|password_policies|roles|groups|auth_sessions"?\s+set\b[^;]*\brevoked_at\b)"?(?:\s|\(|$)/i;

interface SessionEntry {
  principal: Principal;
  lastUsedAt: number;
  expiresAt: number;
}

interface BodyEntry {
  userId: string;
  organizationId: string;
  body: unknown;
  expiresAt: number;
}

export class PrincipalCache {
  readonly #sessions = new Map<string, SessionEntry>();
  /** GET /me bodies by user id. */
  readonly #bodies = new Map<string, BodyEntry>();
  #client: pg.Client | null = null;
  #listening = false;
  #closed = false;
  #reconnect: NodeJS.Timeout | null = null;
  /** Bumped by every drop: a read that started before one must not store what it read. */
  #generation = 0;

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Connects the listener and watches this process's own writes; the cache serves nothing until it listens. */
  async start(knex: Knex): Promise<void> {
    knex.on('query', (query: { sql?: string }) => {
      if (query.sql && CACHED_TABLE_WRITE.test(query.sql)) this.#drop();
    });
    await this.#connect();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#reconnect) clearTimeout(this.#reconnect);
    this.#drop();
    await this.#client?.end().catch(() => undefined);
    this.#client = null;
  }

  get listening(): boolean {
    return this.#listening;
  }

  /** The generation to hand back to `putSession`/`putBody`: read it before reading the database. */
  get generation(): number {
    return this.#generation;
  }

  session(sessionId: string): SessionEntry | undefined {
    if (!this.#listening) return undefined;
    const entry = this.#sessions.get(sessionId);
    if (entry && entry.expiresAt <= this.now()) {
      this.#sessions.delete(sessionId);
      return undefined;
    }
    return entry;
  }

  putSession(generation: number, principal: Principal, lastUsedAt: Date): void {
    if (!this.#listening || generation !== this.#generation || !principal.sessionId) return;
    this.#bound(this.#sessions);
    this.#sessions.set(principal.sessionId, {
      principal,
      lastUsedAt: lastUsedAt.getTime(),
      expiresAt: this.now() + TTL_MS,
    });
  }

  body(userId: string): unknown {
    if (!this.#listening) return undefined;
    const entry = this.#bodies.get(userId);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.#bodies.delete(userId);
      return undefined;
    }
    return entry.body;
  }

  putBody(generation: number, principal: Principal, body: unknown): void {
    if (!this.#listening || generation !== this.#generation) return;
    this.#bound(this.#bodies);
    this.#bodies.set(principal.userId, {
      userId: principal.userId,
      organizationId: principal.organizationId,
      body,
      expiresAt: this.now() + TTL_MS,
    });
  }

  /** Drops one session at once (this process ended it). */
  forgetSession(sessionId: string): void {
    this.#generation += 1;
    this.#sessions.delete(sessionId);
  }

  /** Applies one notification: `s:<session>`, `u:<user>` or `o:<organization>`. */
  apply(payload: string): void {
    this.#generation += 1;
    const [kind, id] = [payload.slice(0, 2), payload.slice(2)];
    if (kind === 's:') {
      this.#sessions.delete(id);
      return;
    }
    type Owner = { userId: string; organizationId: string };
    const hit =
      kind === 'u:'
        ? (owner: Owner) => owner.userId === id
        : kind === 'o:'
          ? (owner: Owner) => owner.organizationId === id
          : () => true;
    for (const [key, entry] of this.#sessions) if (hit(entry.principal)) this.#sessions.delete(key);
    for (const [key, entry] of this.#bodies) if (hit(entry)) this.#bodies.delete(key);
  }

  #drop(): void {
    this.#generation += 1;
    this.#sessions.clear();
    this.#bodies.clear();
  }

  #bound(map: Map<string, unknown>): void {
    if (map.size < MAX_ENTRIES) return;
    // Maps iterate in insertion order: the first keys are the oldest.
    for (const key of map.keys()) {
      map.delete(key);
      if (map.size < MAX_ENTRIES * 0.9) break;
    }
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    const lost = (error?: Error) => {
      if (this.#client !== client) return;
      this.#listening = false;
      this.#client = null;
      this.#drop();
      client.end().catch(() => undefined);
      if (this.#closed) return;
      if (error) this.logger.warn({ err: error }, 'principal cache: listener lost; reading sessions from the database');
      this.#reconnect = setTimeout(() => void this.#connect(), RECONNECT_MS);
      this.#reconnect.unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === PRINCIPAL_CHANNEL && message.payload) this.apply(message.payload);
    });
    this.#client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${PRINCIPAL_CHANNEL}`);
      if (this.#client !== client) return;
      this.#drop(); // whatever was told while nobody listened
      this.#listening = true;
    } catch (error) {
      lost(error as Error);
    }
  }
}
