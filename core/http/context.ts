import type { Logger } from 'pino';
import type { PaidOption } from '../access/plans.ts';
import type { Locale } from './errors.ts';

export type Plan = 'free' | 'standard' | 'professional';

/** The signed-in user a request acts for, resolved from the bearer token and its live session. */
export interface Principal {
  userId: string;
  loginId: string;
  organizationId: string;
  sessionId: string;
  isAdmin: boolean;
  isOwner: boolean;
  plan: Plan;
  /** Paid options of the organization (e.g. aiOcr); each also counts as a plan feature. */
  options: PaidOption[];
  locale: Locale;
  /** The organization's IP allow-list (CIDR strings); empty means no restriction. */
  ipAllowList: string[];
  /**
   * Set when the request authenticated with an API key (core/modules/api-keys): the principal is the key's service
   * user, limited to the key's scopes. Absent or null for a person's session.
   */
  apiKey?: ApiKeyPrincipal | null;
}

/** The API key a request authenticated with. */
export interface ApiKeyPrincipal {
  id: string;
  scopes: string[];
  /** When the key's last_used_at was written (it is written at most once a minute). */
  lastUsedAt: Date | null;
}

/**
 * A one-time (guest) user acting on the one business flow they were invited to, resolved from a guest token and its
 * live guest session (core/auth/guest-sessions.ts). Guests belong to no organization: `organizationId` is the
 * organization that owns the flow's workspace, the only one whose rows they may reach.
 */
export interface GuestPrincipal {
  oneTimeUserId: string;
  invitationId: string;
  businessFlowId: string;
  workspaceId: string;
  organizationId: string;
  sessionId: string;
  name: string;
  email: string;
  locale: Locale;
  /** The terms of use the guest accepted in this invitation, or null before consent (core/modules/one-time-users). */
  acceptedTermId: string | null;
}

/** What a handler or service may know about the request, without Koa. */
export interface RequestContext {
  traceId: string;
  locale: Locale;
  ip: string;
  userAgent: string;
  log: Logger;
  principal: Principal | null;
  /** The guest of a `guest`-secured operation, else null. */
  guest?: GuestPrincipal | null;
}

/** Chooses ja or en from Accept-Language; ja is the default. */
export function negotiateLocale(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return 'ja';
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag, ...rest] = part.trim().toLowerCase().split(';');
      const q = rest.find((p) => p.trim().startsWith('q='));
      return { tag: tag ?? '', q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag.startsWith('ja')) return 'ja';
    if (tag.startsWith('en')) return 'en';
  }
  return 'ja';
}
