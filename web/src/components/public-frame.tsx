import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from './language-switch.tsx';
import { Logo } from './logo.tsx';

/** The frame of every signed-out screen: logo, language switch and one card holding the form. */
export function PublicFrame({ title, children, wide }: { title: string; children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} | ${t('appName')}`;
  }, [title, t]);
  return (
    <div className={wide ? 'public-frame wide' : 'public-frame'}>
      <header className="public-header">
        <Logo />
        <LanguageSwitch />
      </header>
      <main id="main" className="card" aria-labelledby="page-title">
        <h1 id="page-title">{title}</h1>
        {children}
      </main>
    </div>
  );
}
