import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { SealImageManager } from '../../../components/seal-images/seal-image-manager.tsx';
import { ReturnToSigning } from '../../../components/seal-images/return-to-signing.tsx';
import en from '../../../i18n/en/signing.json';
import ja from '../../../i18n/ja/signing.json';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import '../e-certificates.css';

registerCatalogue('signing', { ja, en });

/** The caller's seal images as a settings section (the account screen shows the same manager). */
export function SealImagesPage() {
  const { t } = useTranslation(['signing', 'common']);

  useEffect(() => {
    document.title = `${t('sealImages.title')} | ${t('common:appName')}`;
  }, [t]);

  return (
    <section aria-labelledby="seal-images-title" className="admin-screen">
      <h1 id="seal-images-title">{t('sealImages.title')}</h1>
      <p>{t('sealImages.intro')}</p>
      <ReturnToSigning />
      <SealImageManager />
    </section>
  );
}
