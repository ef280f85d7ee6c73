import { Link, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useSealImages } from '../../api/seal-images.ts';
import { signingReturnPath } from './return-to.ts';

/**
 * The way back to the signing screen that sent the user here (`?returnTo=` of the seal image screen): a hint while
 * no seal image is registered, then 「署名画面に戻る」. Nothing when the screen was opened otherwise or `returnTo` is
 * not a signing screen of this site.
 */
export function ReturnToSigning() {
  const { t } = useTranslation('signing');
  const returnTo = useRouterState({
    select: (state) => signingReturnPath((state.location.search as Record<string, unknown>).returnTo),
  });
  const seals = useSealImages();
  if (!returnTo) return null;
  const registered = (seals.data?.data.length ?? 0) > 0;
  return (
    <div className="notice" role="status">
      <p>{t(registered ? 'sealImages.returnReady' : 'sealImages.returnHint')}</p>
      {registered && (
        <Link to={returnTo} className="button primary">
          {t('sealImages.returnToSigning')}
        </Link>
      )}
    </div>
  );
}
