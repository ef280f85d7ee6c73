import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from '../../../components/public-frame.tsx';

// TODO: the confirmation itself (the link's token, the server call, the confirmed state) comes with the issue that
// adds e-mail arrival confirmation to the API; until then the route explains what it is for.
export function ArrivalConfirmationPage() {
  const { t } = useTranslation('auth');
  return (
    <PublicFrame title={t('arrivalConfirmation.title')}>
      <p>{t('arrivalConfirmation.what')}</p>
      <p className="notice" role="status">
        {t('arrivalConfirmation.notYet')}
      </p>
      <p className="links">
        <Link to="/login">{t('backToLogin')}</Link>
      </p>
    </PublicFrame>
  );
}
