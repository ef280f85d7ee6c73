import { QueryClientProvider } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, Outlet } from '@tanstack/react-router';
import { ToastContainer } from 'react-toastify';
import { AppLayout } from './components/app-layout.tsx';
import { FramePage } from './components/frame-page.tsx';
import { ArrivalConfirmationPage } from './features/auth/pages/arrival-confirmation.tsx';
import { ExpiredPasswordChangePage } from './features/auth/pages/expired-password-change.tsx';
import { ForgetPasswordPage } from './features/auth/pages/forget-password.tsx';
import { InitialPasswordChangePage } from './features/auth/pages/initial-password-change.tsx';
import { LoginPage } from './features/auth/pages/login.tsx';
import { NoticeUserIdPage } from './features/auth/pages/notice-user-id.tsx';
import { ResetPasswordPage } from './features/auth/pages/reset-password.tsx';
import { SignupPage } from './features/auth/pages/signup.tsx';
import { ErrorPage, ForbiddenPage, NotFoundPage, OneTimeErrorPage } from './features/errors/pages.tsx';
import { HomePage } from './features/home/home-page.tsx';
import { SessionEffects, SessionGate } from './session/effects.tsx';
import { queryClient, setNavigator } from './session/session.ts';

export const TOAST_OPTIONS = {
  position: 'top-center',
  autoClose: 5000,
  closeButton: false,
  hideProgressBar: true,
  style: { width: '80vw', maxWidth: 600 },
} as const;

const rootRoute = createRootRoute({
  component: () => (
    <QueryClientProvider client={queryClient}>
      <SessionEffects>
        <Outlet />
      </SessionEffects>
      <ToastContainer {...TOAST_OPTIONS} />
    </QueryClientProvider>
  ),
  notFoundComponent: NotFoundPage,
  errorComponent: ({ error }) => <ErrorPage error={error} />,
});

const publicRoute = <const P extends string>(path: P, component: () => React.ReactNode) =>
  createRoute({ getParentRoute: () => rootRoute, path, component });

/** Everything under the shared session guard, in the signed-in layout. */
const guarded = createRoute({
  getParentRoute: () => rootRoute,
  id: 'guarded',
  component: () => (
    <SessionGate>
      <AppLayout />
    </SessionGate>
  ),
  errorComponent: ({ error }) => <ErrorPage error={error} />,
});

const guardedRoute = <const P extends string>(path: P, component: () => React.ReactNode) =>
  createRoute({ getParentRoute: () => guarded, path, component });

/** The one-time (guest) group: no login guard, its own error page. */
const oneTime = createRoute({
  getParentRoute: () => rootRoute,
  path: '/onetime',
  component: () => <Outlet />,
  errorComponent: OneTimeErrorPage,
  notFoundComponent: OneTimeErrorPage,
});

const oneTimeRoute = <const P extends string>(path: P, title: string) =>
  createRoute({ getParentRoute: () => oneTime, path, component: () => <FramePage title={title} /> });

const routeTree = rootRoute.addChildren([
  publicRoute('/login', LoginPage),
  publicRoute('/notice-user-id', NoticeUserIdPage),
  publicRoute('/forget-password', ForgetPasswordPage),
  publicRoute('/forget-password/reset', ResetPasswordPage),
  publicRoute('/initial-password-change', InitialPasswordChangePage),
  publicRoute('/expired-password-change', ExpiredPasswordChangePage),
  publicRoute('/arrival-confirmation', ArrivalConfirmationPage),
  publicRoute('/signup', SignupPage),
  guarded.addChildren([
    guardedRoute('/', HomePage),
    guardedRoute('/organizations/$', () => <FramePage title="Organizations" />),
    guardedRoute('/outer-business-flows/$outerBusinessFlowId', () => <FramePage title="Outer business flow" />),
    guardedRoute('/workspaces/$workspaceId/join', () => <FramePage title="Workspace invitation" />),
    guardedRoute('/sso', () => <FramePage title="Single sign-on" />),
    guardedRoute('/$orgCode/sso-login', () => <FramePage title="Organization single sign-on" />),
    guardedRoute('/business-flows/$businessFlowId', () => <FramePage title="Business flow" />),
    guardedRoute('/error-403', () => <ForbiddenPage />),
  ]),
  oneTime.addChildren([
    oneTimeRoute('/auth', 'One-time authentication'),
    oneTimeRoute('/business-flows/$businessFlowId', 'Business flow'),
    oneTimeRoute('/terms', 'Terms of use'),
  ]),
]);

export const router = createRouter({ routeTree, defaultPreload: 'intent', scrollRestoration: true });
setNavigator((to) => void router.navigate({ href: to }));

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
