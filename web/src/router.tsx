import { QueryClientProvider } from '@tanstack/react-query';
import {
  type AnyRoute,
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  parseSearchWith,
  redirect,
  type RouteComponent,
  stringifySearchWith,
} from '@tanstack/react-router';
import { ToastContainer } from 'react-toastify';
import { SettingsFrame } from './components/frame-page.tsx';
import { SETTINGS_SECTIONS, type SettingsSectionPath } from './components/settings-sections.ts';
import { LoginPage } from './features/auth/pages/login.tsx';
import {
  validateLoginSearch,
  validatePasswordChangeSearch,
  validateResetSearch,
  validateSignUpSearch,
} from './features/auth/search.ts';
import { validateFlowSearchParams, validateNewFlowSearch } from './features/business-flows/search-params.ts';
import { validateOneTimeAuthSearch } from './features/one-time/search.ts';
import { validateWizardSearch } from './features/send-wizard/search.ts';
import { ErrorPage, ForbiddenPage, NotFoundPage, OneTimeErrorPage } from './features/errors/pages.tsx';
import { validateJoinSearch } from './features/partners/search.ts';
import { validateBoxCallbackSearch } from './features/box/search.ts';
import { validateSsoSearch } from './features/sso/search.ts';
import { currentUserQueryOptions } from './session/current-user.ts';
import { SessionEffects } from './session/effects.tsx';
import { queryClient, sessionGuard, setNavigator } from './session/session.ts';

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

const routeError = ({ error }: { error: unknown }) => <ErrorPage error={error} />;

/*
 * Only the sign-in page and the fallback pages are in the main chunk: every other screen (and the signed-in layout)
 * is a lazy component, loaded by the router before it renders (or on hover, with intent preloading).
 */
const lazy = {
  notice: lazyRouteComponent(() => import('./features/auth/pages/notice-user-id.tsx'), 'NoticeUserIdPage'),
  forget: lazyRouteComponent(() => import('./features/auth/pages/forget-password.tsx'), 'ForgetPasswordPage'),
  reset: lazyRouteComponent(() => import('./features/auth/pages/reset-password.tsx'), 'ResetPasswordPage'),
  initial: lazyRouteComponent(
    () => import('./features/auth/pages/initial-password-change.tsx'),
    'InitialPasswordChangePage',
  ),
  expired: lazyRouteComponent(
    () => import('./features/auth/pages/expired-password-change.tsx'),
    'ExpiredPasswordChangePage',
  ),
  arrival: lazyRouteComponent(
    () => import('./features/auth/pages/arrival-confirmation.tsx'),
    'ArrivalConfirmationPage',
  ),
  signup: lazyRouteComponent(() => import('./features/auth/pages/signup.tsx'), 'SignupPage'),
  home: lazyRouteComponent(() => import('./features/home/home-page.tsx'), 'HomePage'),
  layout: lazyRouteComponent(() => import('./components/app-layout.tsx'), 'GuardedLayout'),
  settings: lazyRouteComponent(() => import('./components/settings-layout.tsx'), 'SettingsLayout'),
};

/** A signed-out screen: no guard, its own error boundary, and its search parameters validated when it has any. */
const publicRoute = <const P extends string, S = Record<string, never>>(
  path: P,
  component: RouteComponent,
  validateSearch: (search: Record<string, unknown>) => S = () => ({}) as S,
) => createRoute({ getParentRoute: () => rootRoute, path, component, errorComponent: routeError, validateSearch });

/** Everything under the shared session guard (SessionGate), in the signed-in layout. */
const guarded = createRoute({
  getParentRoute: () => rootRoute,
  id: 'guarded',
  component: lazy.layout,
  errorComponent: routeError,
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

/** A guest screen: a lazy page of the one-time feature, under the group's error page. */
const oneTimeRoute = <const P extends string, S = Record<string, never>>(
  path: P,
  component: RouteComponent,
  validateSearch: (search: Record<string, unknown>) => S = () => ({}) as S,
) => createRoute({ getParentRoute: () => oneTime, path, component, validateSearch });

/** The organization settings area; each section is a lazy screen of its feature. */
const settings = createRoute({
  getParentRoute: () => guarded,
  path: '/organizations/settings',
  component: lazy.settings,
});

const settingsSection = <const P extends SettingsSectionPath>(path: P, component: RouteComponent) =>
  createRoute({ getParentRoute: () => settings, path, component, errorComponent: routeError });

// The first section the user may use: administrators land on the users list, others on a section of their own.
const settingsIndex = createRoute({
  getParentRoute: () => settings,
  path: '/',
  component: lazyRouteComponent(() => import('./components/settings-layout.tsx'), 'SettingsIndex'),
});

/** The screen of each settings section, one lazy line each; a section not listed yet shows its frame. */
const SECTION_SCREENS: Partial<Record<SettingsSectionPath, RouteComponent>> = {
  properties: lazyRouteComponent(() => import('./features/properties/pages/properties-page.tsx'), 'PropertiesPage'),
  'mail-templates': lazyRouteComponent(
    () => import('./features/mail-templates/pages/mail-templates-page.tsx'),
    'MailTemplatesPage',
  ),
  usage: lazyRouteComponent(() => import('./features/usage/pages/usage-page.tsx'), 'UsagePage'),
  batch: lazyRouteComponent(() => import('./features/batch/pages/batch-page.tsx'), 'BatchPage'),
  logs: lazyRouteComponent(() => import('./features/logs/pages/logs-page.tsx'), 'LogsPage'),
  users: lazyRouteComponent(() => import('./features/users/pages/users-page.tsx'), 'UsersPage'),
  groups: lazyRouteComponent(() => import('./features/groups/pages/groups-page.tsx'), 'GroupsPage'),
  roles: lazyRouteComponent(() => import('./features/roles/pages/roles-page.tsx'), 'RolesPage'),
  organization: lazyRouteComponent(
    () => import('./features/organization/pages/organization-page.tsx'),
    'OrganizationPage',
  ),
  'password-policy': lazyRouteComponent(
    () => import('./features/organization/pages/password-policy-page.tsx'),
    'PasswordPolicyPage',
  ),
  'ip-restrictions': lazyRouteComponent(
    () => import('./features/organization/pages/ip-restrictions-page.tsx'),
    'IpRestrictionsPage',
  ),
  'api-keys': lazyRouteComponent(() => import('./features/api-keys/pages/api-keys-page.tsx'), 'ApiKeysPage'),
  // Each user's own signing settings (see also routes:e-certificates below).
  'seal-images': lazyRouteComponent(
    () => import('./features/e-certificates/pages/seal-images-page.tsx'),
    'SealImagesPage',
  ),
  'e-certificate': lazyRouteComponent(
    () => import('./features/e-certificates/pages/e-certificate-page.tsx'),
    'ECertificatePage',
  ),
  agents: lazyRouteComponent(() => import('./features/e-certificates/pages/agents-page.tsx'), 'AgentsPage'),
  sso: lazyRouteComponent(() => import('./features/sso/pages/sso-settings-page.tsx'), 'SsoSettingsPage'),
  box: lazyRouteComponent(() => import('./features/box/pages/box-settings-page.tsx'), 'BoxSettingsPage'),
  webhooks: lazyRouteComponent(
    () => import('./features/webhooks/pages/webhooks-settings-page.tsx'),
    'WebhooksSettingsPage',
  ),
  'ai-ocr': lazyRouteComponent(() => import('./features/ai-ocr/pages/ocr-settings-page.tsx'), 'OcrSettingsPage'),
};

/** Settings screens below a section (details, imports), each a lazy route of its own. */
const settingsSubRoutes: AnyRoute[] = [
  createRoute({
    getParentRoute: () => settings,
    path: 'properties/$propertyId',
    component: lazyRouteComponent(
      () => import('./features/properties/pages/property-detail-page.tsx'),
      'PropertyDetailPage',
    ),
    errorComponent: routeError,
  }),
  createRoute({
    getParentRoute: () => settings,
    path: 'mail-templates/$kind/$locale',
    component: lazyRouteComponent(
      () => import('./features/mail-templates/pages/mail-template-page.tsx'),
      'MailTemplatePage',
    ),
    errorComponent: routeError,
  }),
  createRoute({
    getParentRoute: () => settings,
    path: 'users/new',
    component: lazyRouteComponent(() => import('./features/users/pages/user-new-page.tsx'), 'UserNewPage'),
    errorComponent: routeError,
  }),
  createRoute({
    getParentRoute: () => settings,
    path: 'users/$userId',
    component: lazyRouteComponent(() => import('./features/users/pages/user-detail-page.tsx'), 'UserDetailPage'),
    errorComponent: routeError,
  }),
  createRoute({
    getParentRoute: () => settings,
    path: 'groups/$groupId',
    component: lazyRouteComponent(() => import('./features/groups/pages/group-detail-page.tsx'), 'GroupDetailPage'),
    errorComponent: routeError,
  }),
];

const settingsSections = [
  settingsIndex,
  ...SETTINGS_SECTIONS.map((section) =>
    settingsSection(section.path, SECTION_SCREENS[section.path] ?? (() => <SettingsFrame section={section.key} />)),
  ),
  ...settingsSubRoutes,
];

const homeRoute = createRoute({
  getParentRoute: () => guarded,
  path: '/',
  component: lazy.home,
  // Single sign-on comes back to the page origin (spec §7: the redirect URI): the provider's answer goes on to /sso,
  // which completes the sign-in started in this tab, before the session guard would send the user to /login.
  beforeLoad: ({ location }) => {
    const search = location.search as Record<string, unknown>;
    if (typeof search.state === 'string' && (typeof search.code === 'string' || typeof search.error === 'string')) {
      throw redirect({ to: '/sso', search: validateSsoSearch(search), replace: true });
    }
  },
  // Starts the request while the page's chunk loads, without waiting for it: the page itself shows progress, the
  // slow-loading notice and (through this route's boundary) the error page.
  loader: () => {
    if (sessionGuard.hasSession()) void queryClient.ensureQueryData(currentUserQueryOptions()).catch(() => undefined);
  },
});

const routeTree = rootRoute.addChildren([
  publicRoute('/login', LoginPage, validateLoginSearch),
  publicRoute('/notice-user-id', lazy.notice),
  publicRoute('/forget-password', lazy.forget),
  publicRoute('/forget-password/reset', lazy.reset, validateResetSearch),
  publicRoute('/initial-password-change', lazy.initial, validatePasswordChangeSearch),
  publicRoute('/expired-password-change', lazy.expired, validatePasswordChangeSearch),
  publicRoute('/arrival-confirmation', lazy.arrival, validateResetSearch),
  publicRoute('/signup', lazy.signup, validateSignUpSearch),
  // Single sign-on (plugins/sso): the organization code, then the provider; reachable without tokens.
  publicRoute(
    '/sso',
    lazyRouteComponent(() => import('./features/sso/pages/sso-pages.tsx'), 'SsoPage'),
    validateSsoSearch,
  ),
  publicRoute(
    '/$orgCode/sso-login',
    lazyRouteComponent(() => import('./features/sso/pages/sso-pages.tsx'), 'SsoLoginPage'),
  ),
  // Reachable without tokens (the spec's join route): the invitation card in the signed-out frame, either way.
  publicRoute(
    '/workspaces/$workspaceId/join',
    lazyRouteComponent(() => import('./features/partners/pages/join-page.tsx'), 'WorkspaceJoinPage'),
    validateJoinSearch,
  ),
  guarded.addChildren([
    homeRoute,
    settings.addChildren(settingsSections),
    createRoute({
      getParentRoute: () => guarded,
      path: '/organizations/workspaces',
      component: lazyRouteComponent(() => import('./features/workspaces/pages/workspaces-page.tsx'), 'WorkspacesPage'),
      errorComponent: routeError,
    }),
    createRoute({
      getParentRoute: () => guarded,
      path: '/organizations/workspaces/$workspaceId',
      // The workspace screen with other features' panels (one-time users): composed in web/src/routes.
      component: lazyRouteComponent(() => import('./routes/workspace-detail.tsx'), 'WorkspaceDetailRoute'),
      errorComponent: routeError,
    }),
    createRoute({
      getParentRoute: () => guarded,
      path: '/organizations/business-flows',
      component: lazyRouteComponent(
        () => import('./features/business-flows/pages/business-flows-page.tsx'),
        'BusinessFlowsPage',
      ),
      errorComponent: routeError,
      validateSearch: validateFlowSearchParams,
    }),
    // The send wizard (書類 → 宛先 → 署名欄 → 確認 → 送信); `?draft=` reopens a draft.
    createRoute({
      getParentRoute: () => guarded,
      path: '/organizations/business-flows/new',
      component: lazyRouteComponent(
        () => import('./features/send-wizard/pages/send-wizard-page.tsx'),
        'SendWizardPage',
      ),
      errorComponent: routeError,
      validateSearch: validateWizardSearch,
    }),
    // The full creation form (custom properties, system link ID, comment), linked from the wizard's first step.
    createRoute({
      getParentRoute: () => guarded,
      path: '/organizations/business-flows/new/details',
      component: lazyRouteComponent(
        () => import('./features/business-flows/pages/business-flow-new-page.tsx'),
        'BusinessFlowNewPage',
      ),
      errorComponent: routeError,
      validateSearch: validateNewFlowSearch,
    }),
    // @anchor routes:workspaces-flows (web helper 1 inserts its routes above this line)
    createRoute({
      getParentRoute: () => guarded,
      path: '/organizations/business-flows/$businessFlowId/documents/new',
      component: lazyRouteComponent(
        () => import('./features/documents/pages/document-new-page.tsx'),
        'DocumentNewPage',
      ),
      errorComponent: routeError,
    }),
    createRoute({
      getParentRoute: () => guarded,
      path: '/organizations/documents/$documentId',
      // The document screen with other features' panels (Box): composed in web/src/routes.
      component: lazyRouteComponent(() => import('./routes/document-detail.tsx'), 'DocumentDetailRoute'),
      errorComponent: routeError,
    }),
    createRoute({
      getParentRoute: () => guarded,
      path: '/organizations/tasks',
      component: lazyRouteComponent(() => import('./features/tasks/pages/my-tasks-page.tsx'), 'MyTasksPage'),
      errorComponent: routeError,
    }),
    // @anchor routes:documents-tasks (web helper 2 inserts its routes above this line)
    createRoute({
      getParentRoute: () => guarded,
      path: '/organizations/templates',
      component: lazyRouteComponent(() => import('./routes/templates.tsx'), 'TemplatesRoute'),
      errorComponent: routeError,
    }),
    // @anchor routes:templates (templates screens insert their routes above this line)
    createRoute({
      getParentRoute: () => guarded,
      path: '/organizations/documents/$documentId/tasks/$taskId/sign',
      component: lazyRouteComponent(() => import('./features/signing/pages/sign-task-page.tsx'), 'SignTaskPage'),
      errorComponent: routeError,
    }),
    createRoute({
      getParentRoute: () => guarded,
      path: '/organizations/documents/$documentId/signatures',
      component: lazyRouteComponent(
        () => import('./features/signing/pages/document-signatures-page.tsx'),
        'DocumentSignaturesPage',
      ),
      errorComponent: routeError,
    }),
    createRoute({
      getParentRoute: () => guarded,
      path: '/organizations/signatures/verify',
      component: lazyRouteComponent(
        () => import('./features/signing/pages/verify-signatures-page.tsx'),
        'VerifySignaturesPage',
      ),
      errorComponent: routeError,
    }),
    // @anchor routes:signing (signing screen and verification report insert their routes above this line)
    // The seal image, e-certificate and agent screens are settings sections (SECTION_SCREENS above).
    // @anchor routes:e-certificates (certificate, agent and seal image screens insert their routes above this line)
    // An unknown /organizations/... path is not a screen still to come: it is not found.
    guardedRoute('/organizations/$', () => <NotFoundPage />),
    createRoute({
      getParentRoute: () => guarded,
      path: '/outer-business-flows/$outerBusinessFlowId',
      component: lazyRouteComponent(
        () => import('./features/partners/pages/outer-business-flow-page.tsx'),
        'OuterBusinessFlowPage',
      ),
      errorComponent: routeError,
    }),
    createRoute({
      getParentRoute: () => guarded,
      path: '/business-flows/$businessFlowId',
      // The flow screen with other features' panels (one-time user invitations): composed in web/src/routes.
      component: lazyRouteComponent(() => import('./routes/business-flow-detail.tsx'), 'BusinessFlowDetailRoute'),
      errorComponent: routeError,
    }),
    createRoute({
      getParentRoute: () => guarded,
      path: '/account',
      // Every user's own account: name, language, mobile number, password, seal images, signed-in devices.
      component: lazyRouteComponent(() => import('./features/account/pages/account-page.tsx'), 'AccountPage'),
      errorComponent: routeError,
    }),
    // Box (plugins/box) sends the administrator back here with ?code&state after they allowed the connection.
    createRoute({
      getParentRoute: () => guarded,
      path: '/box/callback',
      component: lazyRouteComponent(() => import('./features/box/pages/box-callback-page.tsx'), 'BoxCallbackPage'),
      errorComponent: routeError,
      validateSearch: validateBoxCallbackSearch,
    }),
    guardedRoute('/error-403', () => <ForbiddenPage />),
  ]),
  oneTime.addChildren([
    oneTimeRoute(
      '/auth',
      lazyRouteComponent(() => import('./features/one-time/pages/auth-page.tsx'), 'OneTimeAuthPage'),
      validateOneTimeAuthSearch,
    ),
    oneTimeRoute(
      '/business-flows/$businessFlowId',
      lazyRouteComponent(() => import('./features/one-time/pages/business-flow-page.tsx'), 'OneTimeBusinessFlowPage'),
    ),
    oneTimeRoute(
      '/terms',
      lazyRouteComponent(() => import('./features/one-time/pages/terms-page.tsx'), 'OneTimeTermsPage'),
    ),
    // The phone lands here from the QR code a member shows (no session yet: name and e-mail, then the code).
    oneTimeRoute(
      '/qr/$qrToken',
      lazyRouteComponent(() => import('./features/one-time/pages/qr-page.tsx'), 'OneTimeQrPage'),
    ),
  ]),
]);

export const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  scrollRestoration: true,
  // Query values stay the strings they are in the URL (a user ID "12345" or a token is not JSON), so links built
  // by hand (mails, the session guard's /login?redirect=…&timeout=1) and by the router read the same.
  parseSearch: parseSearchWith((value) => value),
  stringifySearch: stringifySearchWith(JSON.stringify),
});
setNavigator((to) => void router.navigate({ href: to }));

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
