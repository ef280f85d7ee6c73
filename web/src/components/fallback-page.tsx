import { type ReactNode, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { InsideMain } from './landmarks.ts';
import { Logo } from './logo.tsx';

/** A fallback page: the logo, a status title and a heading, with an optional action. */
export function FallbackPage(props: { title: string; heading: string; children?: ReactNode; home?: string | null }) {
  const { t } = useTranslation();
  const home = props.home === undefined ? '/' : props.home;
  // Inside the signed-in layout the page is a section of its <main>; on its own it is the main landmark.
  const inside = useContext(InsideMain);
  const Landmark = inside ? 'section' : 'main';
  return (
    <Landmark id={inside ? undefined : 'main'} className="fallback" aria-labelledby="fallback-heading">
      <Logo size={48} />
      <p className="fallback-status">{props.title}</p>
      <h1 id="fallback-heading">{props.heading}</h1>
      {props.children}
      {home !== null && (
        <p>
          <a href={home}>{t('fallback.backHome')}</a>
        </p>
      )}
    </Landmark>
  );
}
