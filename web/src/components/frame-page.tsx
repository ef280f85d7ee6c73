import { useTranslation } from 'react-i18next';

/** The frame of a screen a later issue fills: its title and a short notice, inside the real layout. */
export function FramePage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="frame-title" className="frame-page">
      <h1 id="frame-title">{title}</h1>
      <p className="muted">{t('comingSoon')}</p>
    </section>
  );
}
