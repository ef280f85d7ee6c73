import { useQueryClient } from '@tanstack/react-query';
import { useRouter, useRouterState } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import { isJoinPath, isPublicPath, isSessionEndedError, isSsoPath, loginLocation } from './guard.ts';
import { oneTimeGuard, sessionGuard } from './session.ts';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown'] as const;

/**
 * Session behaviour that is not tied to a request: user activity refreshes the timestamp; on window focus outside
 * the public routes a missing or timed-out session sends the user to sign in; unhandled rejections other than an
 * ended session reach the error boundary.
 */
export function SessionEffects({ children }: { children: ReactNode }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  // Boxed, so a falsy rejection reason (0, '', false) still reaches the boundary.
  const [crash, setCrash] = useState<{ reason: unknown } | null>(null);

  useEffect(() => {
    let last = 0;
    const onActivity = () => {
      const now = Date.now();
      if (now - last < 1000) return;
      last = now;
      if (sessionGuard.hasSession()) sessionGuard.touch();
      if (oneTimeGuard.hasSession()) oneTimeGuard.touch();
    };
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, onActivity, { passive: true });
    return () => {
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, onActivity);
    };
  }, []);

  useEffect(() => {
    const onFocus = () => {
      const { pathname, search, state } = router.state.location;
      if (
        isPublicPath(pathname) ||
        isSsoPath(pathname) ||
        pathname.startsWith('/onetime/') ||
        sessionGuard.hasSession()
      )
        return;
      const timeout = sessionGuard.timedOut();
      sessionGuard.clear();
      queryClient.clear();
      if (isJoinPath(pathname)) {
        const invitationToken = (state as { invitationId?: string } | undefined)?.invitationId;
        void router.navigate({ href: loginLocation({ invitationToken }) });
        return;
      }
      const searchString = typeof search === 'string' ? search : router.state.location.searchStr;
      void router.navigate({ href: loginLocation({ redirect: `${pathname}${searchString}`, timeout }) });
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [router, queryClient]);

  useEffect(() => {
    const onRejection = (event: PromiseRejectionEvent) => {
      if (isSessionEndedError(event.reason)) {
        event.preventDefault();
        return;
      }
      setCrash({ reason: event.reason ?? new Error('unhandled rejection') });
    };
    window.addEventListener('unhandledrejection', onRejection);
    return () => window.removeEventListener('unhandledrejection', onRejection);
  }, []);

  if (crash)
    throw crash.reason instanceof Error ? crash.reason : new Error(`unhandled rejection: ${String(crash.reason)}`);
  return children;
}

/** Renders the guarded routes only with access-token claims; the join route renders without them. */
export function SessionGate({ children }: { children: ReactNode }) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const search = useRouterState({ select: (state) => state.location.searchStr });
  const router = useRouter();
  const join = isJoinPath(pathname);
  const live = sessionGuard.hasSession() && sessionGuard.claims() !== null;

  useEffect(() => {
    // While the router moves to /login the guarded layout can still be mounted with the new location: leave it.
    if (live || join || isPublicPath(pathname)) return;
    const timeout = sessionGuard.timedOut();
    sessionGuard.clear();
    void router.navigate({ href: loginLocation({ redirect: `${pathname}${search}`, timeout }), replace: true });
  }, [live, join, pathname, search, router]);

  if (!live && !join) return null;
  return children;
}
