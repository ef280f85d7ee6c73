import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../../components/language-switch.tsx';
import { Logo } from '../../../components/logo.tsx';

/**
 * The frame of the guest's flow: the logo, who is signed in, the language switch and sign-out, then the screen.
 * No menu: a guest reaches only their one business flow.
 */
export function GuestFrame(props: {
  title: string;
  guest?: { name: string; email: string } | null;
  onSignOut?: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation(['oneTime', 'common']);
  useEffect(() => {
    document.title = `${props.title} | ${t('common:appName')}`;
  }, [props.title, t]);
  return (
    <div className="onetime-frame">
      <header className="onetime-header">
        <Logo />
        <div className="onetime-header-tools">
          {props.guest && (
            <span className="onetime-guest">
              {t('guest.signedInAs', { name: props.guest.name, email: props.guest.email })}
            </span>
          )}
          <LanguageSwitch />
          {props.onSignOut && (
            <button type="button" className="button" onClick={props.onSignOut}>
              {t('guest.signOut')}
            </button>
          )}
        </div>
      </header>
      <main id="main" className="onetime-main" aria-labelledby="page-title">
        {props.children}
      </main>
    </div>
  );
}
