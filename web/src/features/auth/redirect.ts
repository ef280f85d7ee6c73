const BASE = 'http://keiyaku.invalid';

/**
 * Where to go after signing in: the `redirect` query only when it is a path on this origin ("/…", never "//…" or
 * "/\…", which browsers read as another host, nor a path that only normalizes to one), else the home page. The
 * result is the normalized path, query and fragment.
 */
export function safeRedirect(redirect: string | undefined): string {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return '/';
  // Control characters (a tab or newline inside "/\t/evil") are dropped by URL parsers, which could make "//".
  if (/[\u0000-\u001f\u007f]/.test(redirect)) return '/';
  const url = new URL(redirect, BASE);
  // "/a/..//evil" normalizes to "//evil": a protocol-relative address once it is used as a link.
  if (url.origin !== BASE || url.pathname.startsWith('//')) return '/';
  // Back to the sign-in page itself would only show the form again.
  if (/^\/login\/?$/.test(url.pathname)) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A pending workspace invitation rides along as the `invitationToken` query of the target, for the join screen. */
export function withInvitation(target: string, invitationToken: string | undefined): string {
  if (!invitationToken) return target;
  const url = new URL(target, BASE);
  url.searchParams.set('invitationToken', invitationToken);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The place a successful sign-in (or password change) leads to. */
export function afterSignIn(search: { redirect?: string; invitationToken?: string }): string {
  return withInvitation(safeRedirect(search.redirect), search.invitationToken);
}

/**
 * Where sign-in leads with a workspace invitation and no page to return to (the guard sends only the token): the
 * join page, which finds the workspace from the token and corrects its own address.
 */
export function afterSignInWithInvitation(search: { redirect?: string; invitationToken?: string }): string {
  if (search.invitationToken && safeRedirect(search.redirect) === '/') {
    return withInvitation('/workspaces/invitation/join', search.invitationToken);
  }
  return afterSignIn(search);
}
