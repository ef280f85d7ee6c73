import { useTranslation } from 'react-i18next';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import type { SignatureReport, VerificationReport } from '../api/verify-signatures.ts';

function Verdict({ ok, children }: { ok: boolean; children: React.ReactNode }) {
  return <span className={ok ? 'badge badge-ok' : 'badge badge-danger'}>{children}</span>;
}

function useDateTime() {
  const { i18n } = useTranslation();
  const format = japanDateTimeFormat(i18n.language);
  return (value: string | null | undefined) => {
    if (!value) return '—';
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : format.format(date);
  };
}

function TimestampFacts({ timestamp }: { timestamp: NonNullable<SignatureReport['timestamp']> }) {
  const { t } = useTranslation('signing');
  const dateTime = useDateTime();
  return (
    <>
      <Verdict ok={timestamp.valid}>{t(timestamp.valid ? 'report.valid' : 'report.invalid')}</Verdict>{' '}
      <time dateTime={timestamp.time}>{dateTime(timestamp.time)}</time>
      <br />
      <span>{t('report.tsa', { tsa: timestamp.tsa })}</span>
      {timestamp.local && (
        <>
          {' '}
          <span className="badge badge-warn">{t('report.localTsa')}</span>
        </>
      )}
    </>
  );
}

function CertificateFacts({ certificate }: { certificate: NonNullable<SignatureReport['certificate']> }) {
  const { t } = useTranslation('signing');
  const dateTime = useDateTime();
  return (
    <dl className="facts report-certificate">
      <div>
        <dt>{t('report.subject')}</dt>
        <dd className="cell-wrap">{certificate.subject}</dd>
      </div>
      <div>
        <dt>{t('report.issuer')}</dt>
        <dd className="cell-wrap">{certificate.issuer}</dd>
      </div>
      <div>
        <dt>{t('report.serialNumber')}</dt>
        <dd className="report-code">{certificate.serialNumber}</dd>
      </div>
      <div>
        <dt>{t('report.validity')}</dt>
        <dd>
          {dateTime(certificate.notBefore)} – {dateTime(certificate.notAfter)}
        </dd>
      </div>
      <div>
        <dt>{t('report.fingerprint')}</dt>
        <dd className="report-code">{certificate.fingerprintSha256}</dd>
      </div>
    </dl>
  );
}

/** One signature or document timestamp of the report, each check with its verdict in words. */
function SignatureEntry({ signature, position }: { signature: SignatureReport; position: number }) {
  const { t } = useTranslation('signing');
  const dateTime = useDateTime();
  const titleId = `signature-${position}-title`;
  const signer = signature.signerName ?? signature.certificate?.subject ?? '—';
  return (
    <section aria-labelledby={titleId} className="panel signature-entry" data-integrity={signature.integrity}>
      <h2 id={titleId}>
        {t(signature.kind === 'signature' ? 'report.signatureTitle' : 'report.timestampTitle', { position })}
      </h2>
      <dl className="facts">
        <div>
          <dt>{t('report.signer')}</dt>
          <dd className="cell-wrap">{signer}</dd>
        </div>
        <div>
          <dt>{t('report.claimedTime')}</dt>
          <dd>{dateTime(signature.claimedTime)}</dd>
        </div>
        <div>
          <dt>{t('report.subFilter')}</dt>
          <dd className="report-code">{signature.subFilter}</dd>
        </div>
        <div>
          <dt>{t('report.integrity')}</dt>
          <dd>
            <Verdict ok={signature.integrity === 'valid'}>{t(`report.integrities.${signature.integrity}`)}</Verdict>
          </dd>
        </div>
        <div>
          <dt>{t('report.coverage')}</dt>
          <dd>{t(`report.coverages.${signature.coverage}`)}</dd>
        </div>
        <div>
          <dt>{t('report.chain')}</dt>
          <dd>
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
          </dd>
        </div>
        <div>
          <dt>{t('report.timestamp')}</dt>
          <dd>{signature.timestamp ? <TimestampFacts timestamp={signature.timestamp} /> : t('report.none')}</dd>
        </div>
        <div>
          <dt>{t('report.ltv')}</dt>
          <dd>
            {t(signature.ltv.dss ? 'report.dssPresent' : 'report.dssAbsent')}
            {signature.ltv.dss &&
              ` — ${t('report.ltvCounts', {
                certificates: signature.ltv.certificates,
                crls: signature.ltv.crls,
                ocsp: signature.ltv.ocspResponses,
              })}`}
          </dd>
        </div>
        <div>
          <dt>{t('report.padesLevel')}</dt>
          <dd>{signature.padesLevel ?? t('report.none')}</dd>
        </div>
        <div>
          <dt>{t('report.problems')}</dt>
          <dd>
            {signature.problems.length === 0 ? (
              t('report.noProblems')
            ) : (
              <ul className="report-problems">
                {signature.problems.map((problem) => (
                  <li key={problem}>{t(`problems.${problem}`, { defaultValue: problem })}</li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      </dl>
      <details>
        <summary>{t('report.details')}</summary>
        {signature.certificate ? (
          <CertificateFacts certificate={signature.certificate} />
        ) : (
          <p className="muted">{t('report.noCertificate')}</p>
        )}
        <dl className="facts">
          <div>
            <dt>{t('report.fieldName')}</dt>
            <dd>{signature.fieldName ?? '—'}</dd>
          </div>
          <div>
            <dt>{t('report.byteRange')}</dt>
            <dd className="report-code">[{signature.byteRange.join(' ')}]</dd>
          </div>
        </dl>
      </details>
    </section>
  );
}

/** A verification report: the file as a whole (revisions, intact, trailing bytes), then each signature. */
export function SignatureReportView({ report }: { report: VerificationReport }) {
  const { t } = useTranslation('signing');
  const a = report.attributes;
  return (
    <div className="signature-report">
      <section aria-labelledby="report-summary-title" className="panel">
        <h2 id="report-summary-title">{t('report.summaryTitle')}</h2>
        <dl className="facts">
          <div>
            <dt>{t('report.overall')}</dt>
            <dd>
              {a.signatures.length === 0 ? (
                <span className="badge badge-muted">{t('report.unsigned')}</span>
              ) : (
                <Verdict ok={a.allIntact}>{t(a.allIntact ? 'report.allIntact' : 'report.notIntact')}</Verdict>
              )}
            </dd>
          </div>
          <div>
            <dt>{t('report.count')}</dt>
            <dd>{a.signatures.length}</dd>
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
          <div>
            <dt>{t('report.sha256')}</dt>
            <dd className="report-code">{report.id}</dd>
          </div>
        </dl>
      </section>
      {a.signatures.length === 0 ? (
        <p className="notice">{t('report.noSignatures')}</p>
      ) : (
        a.signatures.map((signature, index) => (
          <SignatureEntry key={`${index}-${signature.index}`} signature={signature} position={index + 1} />
        ))
      )}
    </div>
  );
}
