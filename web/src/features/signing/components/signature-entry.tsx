import { useTranslation } from 'react-i18next';
import type { SignatureReport } from '../api/verify-signatures.ts';
import { useDateTime } from './report-text.ts';
import { RevocationLine } from './revocation-line.tsx';

const STATUS_BADGE: Record<SignatureReport['status'], string> = {
  valid: 'badge badge-ok',
  invalid: 'badge badge-danger',
  indeterminate: 'badge badge-warn',
};

function Verdict({ ok, children }: { ok: boolean; children: React.ReactNode }) {
  return <span className={ok ? 'badge badge-ok' : 'badge badge-danger'}>{children}</span>;
}

interface FactProps {
  label: string;
  children: React.ReactNode;
  className?: string;
  /** Takes the whole row: sentences and lists that a narrow column would break into many lines. */
  wide?: boolean;
}

function Fact({ label, children, className, wide }: FactProps) {
  return (
    <div className={wide ? 'fact-wide' : undefined}>
      <dt>{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

function TimestampFacts({ timestamp }: { timestamp: NonNullable<SignatureReport['timestamp']> }) {
  const { t } = useTranslation('signing');
  const dateTime = useDateTime();
  return (
    <>
      <Verdict ok={timestamp.valid}>{t(timestamp.valid ? 'report.valid' : 'report.invalid')}</Verdict>{' '}
      <time dateTime={timestamp.time}>{dateTime(timestamp.time)}</time>
      {/* The built-in TSA is named in the interface language; the server's label for it is English. */}
      {timestamp.local ? (
        <span className="badge badge-warn">{t('report.localTsa')}</span>
      ) : (
        <span className="report-note cell-wrap">
          {t('report.tsa', { tsa: timestamp.tsa === 'unknown' ? t('report.tsaUnknown') : timestamp.tsa })}
        </span>
      )}
      <span className="report-note">
        {t('report.tsaChain', {
          // The built-in TSA's chain ends at this service's own root: trusted here, not publicly.
          chain:
            timestamp.local && timestamp.chain === 'trusted'
              ? t('report.chainLocal')
              : t(`report.chains.${timestamp.chain}`, { defaultValue: timestamp.chain }),
        })}
      </span>
    </>
  );
}

function CertificateFacts({ certificate }: { certificate: NonNullable<SignatureReport['certificate']> }) {
  const { t } = useTranslation('signing');
  const dateTime = useDateTime();
  return (
    <dl className="facts report-certificate">
      <Fact label={t('report.subject')} className="cell-wrap">
        {certificate.subject}
      </Fact>
      <Fact label={t('report.issuer')} className="cell-wrap">
        {certificate.issuer}
      </Fact>
      <Fact label={t('report.serialNumber')} className="report-code">
        {certificate.serialNumber}
      </Fact>
      <Fact label={t('report.validity')}>
        {dateTime(certificate.notBefore)} – {dateTime(certificate.notAfter)}
      </Fact>
      <Fact label={t('report.fingerprint')} className="report-code">
        {certificate.fingerprintSha256}
      </Fact>
    </dl>
  );
}

function Problems({ problems }: { problems: string[] }) {
  const { t } = useTranslation('signing');
  if (problems.length === 0) return <>{t('report.noProblems')}</>;
  return (
    <ul className="report-problems">
      {problems.map((problem) => (
        // A code this version of the workbench does not know yet is shown as the code itself.
        <li key={problem} data-problem={problem}>
          {t(`problems.${problem}`, { defaultValue: problem })}
        </li>
      ))}
    </ul>
  );
}

/** One signature or document timestamp of the report: its status first, then each check with its result in words. */
export function SignatureEntry({ signature, position }: { signature: SignatureReport; position: number }) {
  const { t } = useTranslation('signing');
  const dateTime = useDateTime();
  const titleId = `signature-${position}-title`;
  const signer = signature.signerName ?? signature.certificate?.subject ?? '—';
  return (
    <section
      aria-labelledby={titleId}
      className="panel signature-entry"
      data-status={signature.status}
      data-integrity={signature.integrity}
    >
      <div className="signature-entry-head">
        <h2 id={titleId}>
          {t(signature.kind === 'signature' ? 'report.signatureTitle' : 'report.timestampTitle', { position })}
        </h2>
        <span className={STATUS_BADGE[signature.status] ?? 'badge badge-muted'}>
          {t(`report.statuses.${signature.status}`, { defaultValue: signature.status })}
        </span>
      </div>
      <dl className="facts">
        <Fact label={t('report.signer')} className="cell-wrap">
          {signer}
        </Fact>
        <Fact label={t('report.claimedTime')}>{dateTime(signature.claimedTime)}</Fact>
        {signature.certification !== null && (
          <Fact label={t('report.certificationTitle')}>
            {t(`report.certificationLevels.${signature.certification}`)}
          </Fact>
        )}
        <Fact label={t('report.revision')}>
          {signature.revision === null
            ? t('report.revisionNone')
            : t('report.revisionOf', { revision: signature.revision })}
        </Fact>
        <Fact label={t('report.integrity')}>
          <span className={STATUS_BADGE[signature.integrity === 'unknown' ? 'indeterminate' : signature.integrity]}>
            {t(`report.integrities.${signature.integrity}`)}
          </span>
        </Fact>
        <Fact label={t('report.coverage')}>{t(`report.coverages.${signature.coverage}`)}</Fact>
        <Fact label={t('report.revocation')} className="report-stack" wide>
          <RevocationLine revocation={signature.revocation} signerSubject={signature.certificate?.subject} />
        </Fact>
        <Fact label={t('report.chain')} wide={signature.chainSubjects.length > 0}>
          <Verdict ok={signature.chain === 'trusted'}>{t(`report.chains.${signature.chain}`)}</Verdict>
          {signature.chainSubjects.length > 0 && (
            <ol className="report-chain">
              {signature.chainSubjects.map((subject, index) => (
                <li key={`${index}-${subject}`} className="cell-wrap">
                  {subject}
                </li>
              ))}
            </ol>
          )}
        </Fact>
        <Fact label={t('report.timestamp')} className="report-stack" wide>
          {signature.timestamp ? <TimestampFacts timestamp={signature.timestamp} /> : t('report.none')}
        </Fact>
        <Fact label={t('report.ltv')}>
          {t(signature.ltv.dss ? 'report.dssPresent' : 'report.dssAbsent')}
          {signature.ltv.dss && (
            <span className="report-note">
              {t('report.ltvCounts', {
                certificates: signature.ltv.certificates,
                crls: signature.ltv.crls,
                ocsp: signature.ltv.ocspResponses,
              })}
            </span>
          )}
        </Fact>
        <Fact label={t('report.padesLevel')}>{signature.padesLevel ?? t('report.none')}</Fact>
        <Fact label={t('report.subFilter')} className="report-code">
          {signature.subFilter}
        </Fact>
        <Fact label={t('report.problems')} wide={signature.problems.length > 0}>
          <Problems problems={signature.problems} />
        </Fact>
      </dl>
      <details>
        <summary>{t('report.details')}</summary>
        {signature.certificate ? (
          <CertificateFacts certificate={signature.certificate} />
        ) : (
          <p className="muted">{t('report.noCertificate')}</p>
        )}
        <dl className="facts">
          <Fact label={t('report.fieldName')}>{signature.fieldName ?? '—'}</Fact>
          <Fact label={t('report.byteRange')} className="report-code">
            [{signature.byteRange.join(' ')}]
          </Fact>
        </dl>
      </details>
    </section>
  );
}
