import { useTranslation } from 'react-i18next';

/** The Keiyaku mark and name; decorative image, the name is the text. */
export function Logo({ size = 32 }: { size?: number }) {
  const { t } = useTranslation();
  return (
    <span className="logo">
      <img src="/favicon.svg" width={size} height={size} alt="" aria-hidden="true" />
      <span className="logo-name">{t('appName')}</span>
    </span>
  );
}
