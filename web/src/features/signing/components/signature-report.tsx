import { useTranslation } from 'react-i18next';
import type { VerificationReport } from '../api/verify-signatures.ts';
import { CertificationSection, ChangesSection } from './report-changes.tsx';
import { SignatureEntry } from './signature-entry.tsx';

type Verdict = VerificationReport['attributes']['verdict'];

/** The banner's colour: red for a document that must not be relied on, amber for one that cannot be checked. */
const VERDICT_TONE: Record<Verdict, string> = {
  'changed-after-signing': 'danger',
  invalid: 'danger',
  indeterminate: 'warn',
  valid: 'ok',
  'no-signatures': 'neutral',
};

/**
 * The document's verdict, shown before anything else: the most serious finding in one line and what it means. A
 * signature whose signed bytes no longer match (integrity invalid) is said to be altered, not merely "invalid".
 */
function VerdictBanner({ verdict, altered }: { verdict: Verdict; altered: boolean }) {
  const { t } = useTranslation('signing');
  const key = altered && verdict === 'invalid' ? 'altered' : verdict;
  return (
    <div
      role="status"
      className={`report-verdict report-verdict-${VERDICT_TONE[verdict] ?? 'neutral'}`}
      data-verdict={verdict}
    >
      <p className="report-verdict-label">{t('report.verdictLabel')}</p>
      <p className="report-verdict-title">{t(`report.verdicts.${key}`, { defaultValue: verdict })}</p>
      <p className="report-verdict-hint">{t(`report.verdictHints.${key}`, { defaultValue: '' })}</p>
    </div>
  );
}

function FileSummary({ report }: { report: VerificationReport }) {
  const { t } = useTranslation('signing');
  const a = report.attributes;
  return (
    <section aria-labelledby="report-summary-title" className="panel">
      <h2 id="report-summary-title">{t('report.summaryTitle')}</h2>
      <dl className="facts">
        <div>
          <dt>{t('report.overall')}</dt>
          <dd>
            {a.signatures.length === 0 ? (
              <span className="badge badge-muted">{t('report.unsigned')}</span>
            ) : (
              <span className={a.allIntact ? 'badge badge-ok' : 'badge badge-danger'}>
                {t(a.allIntact ? 'report.allIntact' : 'report.notIntact')}
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('report.count')}</dt>
          <dd>{a.signatures.length + a.signaturesOmitted}</dd>
        </div>
        <div>
          <dt>{t('report.revisions')}</dt>
          <dd>{a.revisions}</dd>
        </div>
        <div>
          <dt>{t('report.trailingBytes')}</dt>
          <dd>
            {a.unsignedTrailingBytes === 0 ? (
              t('report.noTrailingBytes')
            ) : (
              <span className="badge badge-warn">{t('report.trailing', { count: a.unsignedTrailingBytes })}</span>
            )}
          </dd>
        </div>
        <div className="fact-wide">
          <dt>{t('report.sha256')}</dt>
          <dd className="report-code">{report.id}</dd>
        </div>
      </dl>
      {a.encrypted && <p className="notice">{t('report.encrypted')}</p>}
    </section>
  );
}

/**
 * A verification report: the verdict first, then the certification, the changes made after signing, the file as a
 * whole, and each signature with its status.
 */
export function SignatureReportView({ report }: { report: VerificationReport }) {
  const { t } = useTranslation('signing');
  const a = report.attributes;
  const certifier = a.certification
    ? a.signatures.findIndex((signature) => signature.index === a.certification?.signatureIndex) + 1
    : 0;
  const altered = a.signatures.some((signature) => signature.integrity === 'invalid');
  return (
    <div className="signature-report">
      <VerdictBanner verdict={a.verdict} altered={altered} />
      {a.certification && <CertificationSection certification={a.certification} position={certifier} />}
      {a.signatures.length > 0 && <ChangesSection changes={a.changes} altered={altered} />}
      <FileSummary report={report} />
      {a.signatures.map((signature, index) => (
        <SignatureEntry key={`${index}-${signature.index}`} signature={signature} position={index + 1} />
      ))}
      {a.signaturesOmitted > 0 && <p className="notice">{t('report.omitted', { count: a.signaturesOmitted })}</p>}
    </div>
  );
}
