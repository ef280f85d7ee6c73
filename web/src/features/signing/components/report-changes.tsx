import { useTranslation } from 'react-i18next';
import type { RevisionChange, VerificationReport } from '../api/verify-signatures.ts';

type Certification = NonNullable<VerificationReport['attributes']['certification']>;

/** The certification (DocMDP) signature: what it allows, which signature made it, and whether a revision broke it. */
export function CertificationSection({ certification, position }: { certification: Certification; position: number }) {
  const { t } = useTranslation('signing');
  return (
    <section
      aria-labelledby="report-certification-title"
      className="panel report-certification"
      data-violated={certification.violated}
    >
      <h2 id="report-certification-title">{t('report.certificationTitle')}</h2>
      <p className="report-certification-level">{t(`report.certificationLevels.${certification.level}`)}</p>
      {position > 0 && <p className="muted">{t('report.certificationBy', { position })}</p>}
      <p>
        <span className={certification.violated ? 'badge badge-danger' : 'badge badge-ok'}>
          {t(certification.violated ? 'report.certificationViolated' : 'report.certificationKept')}
        </span>
      </p>
    </section>
  );
}

/** The changes in revision order; within a revision the disallowed ones first. */
function byRevision(changes: RevisionChange[]): [number, RevisionChange[]][] {
  const groups = new Map<number, RevisionChange[]>();
  for (const change of changes) groups.set(change.revision, [...(groups.get(change.revision) ?? []), change]);
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([revision, list]) => [revision, [...list].sort((a, b) => Number(a.allowed) - Number(b.allowed))]);
}

function ChangeItem({ change }: { change: RevisionChange }) {
  const { t } = useTranslation('signing');
  return (
    <li className="report-change" data-allowed={change.allowed}>
      <span className={change.allowed ? 'badge badge-ok' : 'badge badge-danger'}>
        {t(change.allowed ? 'report.changeAllowed' : 'report.changeNotAllowed')}
      </span>{' '}
      <span className="report-change-kind">
        {t(`report.changeKinds.${change.kind}`, { defaultValue: change.kind })}
      </span>
      {change.page !== null && <span className="muted">{t('report.changePage', { page: change.page })}</span>}
      {change.objects.length > 0 && (
        <span className="report-note report-code">
          {t('report.changeObjects', { objects: change.objects.join(t('report.detailSeparator')) })}
        </span>
      )}
    </li>
  );
}

/**
 * What each revision after a signature changed, grouped by revision, each change allowed or not. When a signature's
 * own bytes were rewritten (`altered`), no revision records the change: the section says so instead of "nothing".
 */
export function ChangesSection({ changes, altered = false }: { changes: RevisionChange[]; altered?: boolean }) {
  const { t } = useTranslation('signing');
  return (
    <section aria-labelledby="report-changes-title" className="panel report-changes">
      <h2 id="report-changes-title">{t('report.changesTitle')}</h2>
      {changes.length === 0 ? (
        altered ? (
          <p>
            <span className="badge badge-danger">{t('report.changesUnknown')}</span>
          </p>
        ) : (
          <p>{t('report.noChanges')}</p>
        )
      ) : (
        <>
          <p className="muted">{t('report.changesIntro')}</p>
          {byRevision(changes).map(([revision, list]) => (
            <div key={revision} className="report-revision">
              <h3>{t('report.changesOfRevision', { revision })}</h3>
              <ul className="report-change-list">
                {list.map((change, index) => (
                  <ChangeItem key={`${change.kind}-${change.page ?? ''}-${index}`} change={change} />
                ))}
              </ul>
            </div>
          ))}
        </>
      )}
    </section>
  );
}
