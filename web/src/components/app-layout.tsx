import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useSignOut } from '../features/auth/api/sign-out.ts';
import { SessionGate } from '../session/effects.tsx';
import { MailLinkConfirmation } from '../session/mail-link.tsx';
import { InsideMain } from './landmarks.ts';
import { LanguageSwitch } from './language-switch.tsx';
import { Logo } from './logo.tsx';
import { useWorkbenchAreas } from './plan-gate.tsx';

/** The signed-in frame: header with navigation (a menu button on narrow screens), language and sign-out. */
export function AppLayout() {
  const { t } = useTranslation();
  const areas = useWorkbenchAreas();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  // The tokens are gone whatever the server answered, so the user is signed out either way.
  const signOut = useSignOut(() => {
    toast.success(t('auth:signOut.done'));
    void navigate({ to: '/login' });
  });
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <header className="app-header">
        <Link to="/" className="home-link">
          <Logo />
        </Link>
        <button
          type="button"
          className="menu-button"
          aria-expanded={open}
          aria-controls="main-nav"
          onClick={() => setOpen(!open)}
        >
          {open ? t('nav.closeMenu') : t('nav.openMenu')}
        </button>
        <nav id="main-nav" aria-label={t('nav.label')} className={open ? 'open' : undefined}>
          <ul>
            <li>
              <Link to="/" activeOptions={{ exact: true }} onClick={() => setOpen(false)}>
                {t('nav.home')}
              </Link>
            </li>
            {areas.map((area) => (
              <li key={area.key}>
                <Link to="/organizations/$" params={{ _splat: area.splat }} onClick={() => setOpen(false)}>
                  {t(`nav.${area.key}`)}
                </Link>
              </li>
            ))}
          </ul>
          <div className="nav-tools">
            <Link to="/account" className="account-link" onClick={() => setOpen(false)}>
              {t('nav.account')}
            </Link>
            <LanguageSwitch />
            <button type="button" className="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
              {t('nav.signOut')}
            </button>
          </div>
        </nav>
      </header>
      <main id="main" className="app-main">
        <InsideMain.Provider value={true}>
          <Outlet />
        </InsideMain.Provider>
      </main>
    </div>
  );
}

/**
 * The guarded routes' component: nothing renders without a session (SessionGate), nor before a task mail's link has
 * confirmed the e-mail arrival (MailLinkConfirmation), then the signed-in frame.
 */
export function GuardedLayout() {
  return (
    <SessionGate>
      <MailLinkConfirmation>
        <AppLayout />
      </MailLinkConfirmation>
    </SessionGate>
  );
}
