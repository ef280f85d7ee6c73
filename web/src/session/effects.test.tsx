import { QueryClientProvider } from '@tanstack/react-query';
import {
  createBrowserHistory,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
  type RouterHistory,
} from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenPair } from '../testing/fixtures.ts';
import { SessionGate, SessionEffects } from './effects.tsx';
import { SESSION_TIMEOUT_MS, SessionEndedError } from './guard.ts';
import { queryClient, sessionGuard, setNavigator } from './session.ts';

/** Records which page bodies rendered, to prove the gate rendered nothing. */
const rendered = vi.fn<(page: string) => void>();

function Page({ name }: { name: string }) {
  rendered(name);
  return <h1>{name}</h1>;
}

/** The session-related part of the real route tree: root effects, the guarded layout, public and one-time pages. */
function renderApp(history: RouterHistory) {
  const rootRoute = createRootRoute({
    component: () => (
      <QueryClientProvider client={queryClient}>
        <SessionEffects>
          <Outlet />
        </SessionEffects>
      </QueryClientProvider>
    ),
    errorComponent: ({ error }) => (
      <p role="alert">Error boundary: {error instanceof Error ? error.message : String(error)}</p>
    ),
  });
  const guarded = createRoute({
    getParentRoute: () => rootRoute,
    id: 'guarded',
    component: () => (
      <SessionGate>
        <Outlet />
      </SessionGate>
    ),
  });
  const page = (parent: typeof rootRoute | typeof guarded, path: string, name: string) =>
    createRoute({ getParentRoute: () => parent, path, component: () => <Page name={name} /> });
  const routeTree = rootRoute.addChildren([
    page(rootRoute, '/login', 'Sign in'),
    page(rootRoute, '/signup', 'Sign up'),
    page(rootRoute, '/onetime/auth', 'Guest sign in'),
    page(rootRoute, '/onetime/business-flows/$businessFlowId', 'Guest business flow'),
    guarded.addChildren([
      page(guarded, '/', 'Home'),
      page(guarded, '/business-flows/$businessFlowId', 'Business flow'),
      page(guarded, '/workspaces/$workspaceId/join', 'Workspace invitation'),
    ]),
  ]);
  const router = createRouter({ routeTree, history });
  render(<RouterProvider router={router} />);
  return router;
}

const memory = (path: string) => createMemoryHistory({ initialEntries: [path] });

/** Signs in with a token valid for an hour; the activity timestamp is now. */
const signIn = () => sessionGuard.signedIn(tokenPair(Math.floor(Date.now() / 1000) + 3600));

/** Moves the last activity more than 30 minutes into the past. */
const idleTooLong = () => localStorage.setItem('keiyaku.sessionTimestamp', String(Date.now() - SESSION_TIMEOUT_MS - 1));

const focusWindow = () => act(() => void fireEvent.focus(window));

const cacheIsEmpty = () => queryClient.getQueryCache().getAll().length === 0;

beforeEach(() => {
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined); // jsdom has no scrolling
  rendered.mockClear();
  queryClient.setQueryData(['business-flow', 'bf-1'], { id: 'bf-1' });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  queryClient.clear();
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('SessionGate', () => {
  it('renders its children with access-token claims', async () => {
    signIn();
    const router = renderApp(memory('/business-flows/bf-1'));
    expect(await screen.findByRole('heading', { name: 'Business flow' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/business-flows/bf-1');
  });

  it('renders nothing without access-token claims and sends the user to /login with the original URI', async () => {
    const router = renderApp(memory('/business-flows/bf-1?tab=documents'));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(rendered).not.toHaveBeenCalledWith('Business flow');
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toEqual({ redirect: '/business-flows/bf-1?tab=documents' });
  });

  it('renders nothing for a timed-out session, clears it and passes the timeout flag', async () => {
    signIn();
    idleTooLong();
    const router = renderApp(memory('/'));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(rendered).not.toHaveBeenCalledWith('Home');
    expect(router.state.location.search).toEqual({ redirect: '/', timeout: 1 });
    expect(localStorage.getItem('keiyaku.tokens')).toBeNull();
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBeNull();
  });

  it('renders the join route without tokens', async () => {
    const router = renderApp(memory('/workspaces/w-1/join'));
    expect(await screen.findByRole('heading', { name: 'Workspace invitation' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/workspaces/w-1/join');
  });
});

describe('ending a session from a request', () => {
  it('clears the query cache and navigates to /login with the original URI and the timeout flag', async () => {
    // The browser history, so the page location the session module reads is the router's own.
    window.history.replaceState(null, '', '/business-flows/bf-1?tab=documents');
    signIn();
    const router = renderApp(createBrowserHistory());
    setNavigator((to) => void router.navigate({ href: to }));
    expect(await screen.findByRole('heading', { name: 'Business flow' })).toBeTruthy();

    idleTooLong();
    await act(async () => {
      await expect(sessionGuard.accessToken()).rejects.toEqual(new SessionEndedError('timeout'));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ redirect: '/business-flows/bf-1?tab=documents', timeout: 1 });
    expect(window.location.pathname).toBe('/login');
    expect(cacheIsEmpty()).toBe(true);
    expect(localStorage.getItem('keiyaku.tokens')).toBeNull();
  });
});

describe('window focus', () => {
  it('with a valid session on a guarded route does nothing', async () => {
    signIn();
    const router = renderApp(memory('/business-flows/bf-1'));
    await screen.findByRole('heading', { name: 'Business flow' });
    focusWindow();
    expect(router.state.location.pathname).toBe('/business-flows/bf-1');
    expect(localStorage.getItem('keiyaku.tokens')).not.toBeNull();
    expect(cacheIsEmpty()).toBe(false);
  });

  it('after a timeout removes tokens, clears the cache and goes to /login with the URI and timeout flag', async () => {
    signIn();
    const router = renderApp(memory('/business-flows/bf-1?tab=documents'));
    await screen.findByRole('heading', { name: 'Business flow' });
    idleTooLong();
    focusWindow();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ redirect: '/business-flows/bf-1?tab=documents', timeout: 1 });
    expect(localStorage.getItem('keiyaku.tokens')).toBeNull();
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBeNull();
    expect(cacheIsEmpty()).toBe(true);
  });

  it('with tokens gone (signed out in another tab) goes to /login with the URI and no timeout flag', async () => {
    signIn();
    const router = renderApp(memory('/business-flows/bf-1?tab=documents'));
    await screen.findByRole('heading', { name: 'Business flow' });
    localStorage.removeItem('keiyaku.tokens');
    focusWindow();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ redirect: '/business-flows/bf-1?tab=documents' });
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBeNull();
    expect(cacheIsEmpty()).toBe(true);
  });

  it.each([
    ['/login', 'Sign in'],
    ['/signup', 'Sign up'],
    ['/onetime/business-flows/bf-1', 'Guest business flow'],
  ])('on the public route %s does nothing', async (path, heading) => {
    signIn();
    idleTooLong();
    const router = renderApp(memory(path));
    await screen.findByRole('heading', { name: heading });
    focusWindow();
    expect(router.state.location.pathname).toBe(path);
    expect(localStorage.getItem('keiyaku.tokens')).not.toBeNull();
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).not.toBeNull();
    expect(cacheIsEmpty()).toBe(false);
  });

  it('on a one-time route (no login guard) never sends the guest to /login', async () => {
    const router = renderApp(memory('/onetime/auth'));
    await screen.findByRole('heading', { name: 'Guest sign in' });
    focusWindow();
    expect(router.state.location.pathname).toBe('/onetime/auth');
    expect(cacheIsEmpty()).toBe(false);
  });

  it('on the join route goes to /login with the invitationToken from the navigation state', async () => {
    const router = renderApp(memory('/signup'));
    await screen.findByRole('heading', { name: 'Sign up' });
    act(() => router.history.push('/workspaces/w-1/join', { invitationId: 'inv-7' }));
    await screen.findByRole('heading', { name: 'Workspace invitation' });
    focusWindow();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ invitationToken: 'inv-7' });
    expect(cacheIsEmpty()).toBe(true);
  });

  it('on the join route with a valid session stays', async () => {
    signIn();
    const router = renderApp(memory('/workspaces/w-1/join'));
    await screen.findByRole('heading', { name: 'Workspace invitation' });
    focusWindow();
    expect(router.state.location.pathname).toBe('/workspaces/w-1/join');
  });
});

describe('activity', () => {
  it('a pointer or key press refreshes the timestamp of a live session, at most once a second', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2026-04-01T09:00:00Z').getTime();
    vi.setSystemTime(start);
    signIn();
    renderApp(memory('/'));
    await screen.findByRole('heading', { name: 'Home' });

    vi.setSystemTime(start + 10 * 60_000);
    fireEvent.pointerDown(window);
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBe(String(start + 10 * 60_000));

    vi.setSystemTime(start + 10 * 60_000 + 500);
    fireEvent.keyDown(window, { key: 'a' });
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBe(String(start + 10 * 60_000));

    vi.setSystemTime(start + 10 * 60_000 + 1_000);
    fireEvent.keyDown(window, { key: 'a' });
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBe(String(start + 10 * 60_000 + 1_000));
  });

  it('does not revive a timed-out session', async () => {
    signIn();
    renderApp(memory('/signup'));
    await screen.findByRole('heading', { name: 'Sign up' });
    idleTooLong();
    const stale = localStorage.getItem('keiyaku.sessionTimestamp');
    fireEvent.pointerDown(window);
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBe(stale);
  });
});

describe('unhandled promise rejections', () => {
  /** Dispatches the event a browser fires for a rejection nobody handled. */
  function unhandled(reason: unknown): PromiseRejectionEvent {
    const promise = Promise.reject(reason);
    promise.catch(() => undefined);
    const event = new PromiseRejectionEvent('unhandledrejection', { promise, reason, cancelable: true });
    act(() => void window.dispatchEvent(event));
    return event;
  }

  it('swallows an ended session (the known kind)', async () => {
    signIn();
    renderApp(memory('/'));
    await screen.findByRole('heading', { name: 'Home' });
    const event = unhandled(new SessionEndedError('refresh-failed'));
    expect(event.defaultPrevented).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Home' })).toBeTruthy();
  });

  it('sends any other rejection to the error boundary', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    signIn();
    renderApp(memory('/'));
    await screen.findByRole('heading', { name: 'Home' });
    const event = unhandled(new Error('chunk failed to load'));
    expect(event.defaultPrevented).toBe(false);
    expect((await screen.findByRole('alert')).textContent).toBe('Error boundary: chunk failed to load');
  });

  it('sends a rejection without a reason to the error boundary too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderApp(memory('/login'));
    await screen.findByRole('heading', { name: 'Sign in' });
    unhandled(undefined);
    expect((await screen.findByRole('alert')).textContent).toBe('Error boundary: unhandled rejection');
  });
});
