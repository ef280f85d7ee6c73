import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { DetailStatus } from '../../../components/detail-status.tsx';
import en from '../../../i18n/en/signing.json';
import ja from '../../../i18n/ja/signing.json';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useDocument } from '../api/get-sign-task.ts';
import { useDocumentSignatures } from '../api/verify-signatures.ts';
import { SignatureReportView } from '../components/signature-report.tsx';
import '../signing.css';

registerCatalogue('signing', { ja, en });

const route = getRouteApi('/guarded/organizations/documents/$documentId/signatures');

/** The verification report of a document's latest version: every signature and timestamp, checked by the server. */
export function DocumentSignaturesPage() {
  const { t } = useTranslation(['signing', 'common']);
  const { documentId } = route.useParams();
  const document_ = useDocument(documentId);
  const report = useDocumentSignatures(documentId);
  const name = document_.data?.attributes.name;

  useEffect(() => {
    document.title = `${t('report.title')} | ${t('common:appName')}`;
  }, [t]);

  return (
    <section aria-labelledby="report-title" className="admin-screen sign-screen">
      <p className="back-link">
        <Link to="/organizations/documents/$documentId" params={{ documentId }}>
          {t('sign.back')}
          {name ? `: ${name}` : ''}
        </Link>
      </p>
      <h1 id="report-title">{t('report.title')}</h1>
      {name && <p className="sign-document-name">{name}</p>}
      <p className="muted">{t('report.intro')}</p>
      <DetailStatus query={report} loading={t('report.loading')} notFound={t('report.notFound')} />
      {report.data && <SignatureReportView report={report.data} />}
      <p className="links">
        <Link to="/organizations/signatures/verify">{t('verify.link')}</Link>
      </p>
    </section>
  );
}
