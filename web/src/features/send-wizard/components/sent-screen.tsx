import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** After 送信: the flow is live and the first recipients have been mailed. */
export function SentScreen(props: { businessFlowId: string }) {
  const { t } = useTranslation(['sendWizard', 'common']);
  useEffect(() => {
    document.title = `${t('sent.title')} | ${t('common:appName')}`;
  }, [t]);
  return (
    <section className="send-wizard wizard-sent" aria-labelledby="sent-title">
      <h1 id="sent-title">{t('sent.title')}</h1>
      <p>{t('sent.body')}</p>
      <div className="wizard-actions">
        <Link
          to="/business-flows/$businessFlowId"
          params={{ businessFlowId: props.businessFlowId }}
          className="button primary"
        >
          {t('sent.openFlow')}
        </Link>
        <Link to="/organizations/business-flows/new" className="button">
          {t('sent.another')}
        </Link>
        <Link to="/" className="button">
          {t('sent.home')}
        </Link>
      </div>
    </section>
  );
}
