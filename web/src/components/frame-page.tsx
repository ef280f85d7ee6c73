import { useTranslation } from 'react-i18next';

/** Screens later issues fill; each has a title in both catalogues (common.json `frames`). */
export type FrameKey =
  'organizations' | 'outerBusinessFlow' | 'workspaceJoin' | 'sso' | 'organizationSso' | 'businessFlow';

/** The frame of a screen a later issue fills: its title and a short notice, inside the real layout. */
export function FramePage({ frame }: { frame: FrameKey }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="frame-title" className="frame-page">
      <h1 id="frame-title">{t(`frames.${frame}`)}</h1>
      <p className="muted">{t('comingSoon')}</p>
    </section>
  );
}

/** A settings section whose screen is not built yet: its menu title and the same notice. */
export function SettingsFrame({ section }: { section: string }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="frame-title" className="frame-page">
      <h1 id="frame-title">{t(`settings.sections.${section}`)}</h1>
      <p className="muted">{t('comingSoon')}</p>
    </section>
  );
}
