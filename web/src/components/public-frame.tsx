import type { ReactNode } from 'react';
import { LanguageSwitch } from './language-switch.tsx';
import { Logo } from './logo.tsx';

/** The frame of every signed-out screen: logo, language switch and one card holding the form. */
export function PublicFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="public-frame">
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
