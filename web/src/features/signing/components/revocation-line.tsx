import { useTranslation } from 'react-i18next';
import { type Revocation, useRevocationText } from './report-text.ts';

const BADGE: Record<string, string> = {
  good: 'badge badge-ok',
  revoked: 'badge badge-danger',
  'revoked-after-signing': 'badge badge-warn',
  unknown: 'badge badge-warn',
  'not-checked': 'badge badge-muted',
};

/** The signer certificate's revocation: the status sentence, which certificate it is about and what said so. */
export function RevocationLine({ revocation, signerSubject }: { revocation: Revocation; signerSubject?: string }) {
  const { t } = useTranslation('signing');
  const text = useRevocationText();
  const evidence = [
    revocation.method?.toUpperCase(),
    revocation.source && t(`report.revocationSources.${revocation.source}`, { defaultValue: revocation.source }),
  ].filter(Boolean);
  // An intermediate authority revoked (or unknown) matters as much as the signer's own certificate: name it.
  const otherSubject = revocation.subject && revocation.subject !== signerSubject ? revocation.subject : null;
  return (
    <>
      <span className={BADGE[revocation.status] ?? 'badge badge-muted'} data-revocation={revocation.status}>
        {text(revocation)}
      </span>
      {otherSubject && revocation.status !== 'good' && (
        <span className="report-note cell-wrap">{t('report.revocationSubject', { subject: otherSubject })}</span>
      )}
      {evidence.length > 0 && (
        <span className="report-note">
          {t('report.revocationEvidence', { evidence: evidence.join(t('report.detailSeparator')) })}
        </span>
      )}
      {revocation.status === 'not-checked' && (
        <span className="report-note">{t('report.revocationNotCheckedHint')}</span>
      )}
    </>
  );
}
