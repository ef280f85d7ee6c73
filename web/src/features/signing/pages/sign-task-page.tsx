import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentFile } from '../../../api/download-document.ts';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { DetailStatus } from '../../../components/detail-status.tsx';
import { OpenedPdf } from '../../../components/pdf-controls.tsx';
import { keptPlacements, signerFields } from '../../../components/signing/fields.ts';
import { PlacementBoard } from '../../../components/signing/placement-board.tsx';
import type { Placement } from '../../../components/signing/placement.ts';
import en from '../../../i18n/en/signing.json';
import ja from '../../../i18n/ja/signing.json';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCurrentUser } from '../../../session/current-user.ts';
import { type SignTask, useDocument, useSignTask } from '../api/get-sign-task.ts';
import { useSignatureTypes } from '../api/list-signature-types.ts';
import { MemberSealTool } from '../components/seal-tool.tsx';
import { SignForm } from '../components/sign-form.tsx';
import { SignedPanel } from '../components/signed-panel.tsx';
import '../signing.css';

registerCatalogue('signing', { ja, en });

const route = getRouteApi('/guarded/organizations/documents/$documentId/tasks/$taskId/sign');

/** The signature type and channel of the task, and what the type asks. */
function TaskFacts({ task, padesLevel }: { task: SignTask; padesLevel: string | undefined }) {
  const { t } = useTranslation('signing');
  const type = task.attributes.signatureType ?? 'operator';
  return (
    <dl className="facts">
      <div>
        <dt>{t('sign.signatureType')}</dt>
        <dd>
          <span>{t(`signatureTypes.${type}`)}</span>
          <span className="muted"> — {t(`signatureTypeHints.${type}`)}</span>
        </dd>
      </div>
      <div>
        <dt>{t('sign.twoFactor')}</dt>
        <dd>{t(`twoFactors.${task.attributes.twoFactor}`)}</dd>
      </div>
      {padesLevel && (
        <div>
          <dt>{t('sign.padesLevel')}</dt>
          <dd>{t(`padesLevels.${padesLevel}`, { defaultValue: padesLevel })}</dd>
        </div>
      )}
    </dl>
  );
}

function SignWorkspace(props: {
  documentId: string;
  title: string;
  version: number;
  task: SignTask;
  onSigned: () => void;
}) {
  const { t } = useTranslation('signing');
  const me = useCurrentUser();
  const types = useSignatureTypes();
  const file = useDocumentFile(props.documentId, props.version);
  const [placements, setPlacements] = useState<Placement[]>([]);
  const fields = useMemo(() => signerFields(props.task.attributes.fields), [props.task.attributes.fields]);
  const allowOwn = props.task.attributes.allowSignerPlacements ?? true;
  // A plan changed under the open screen: fillings of fields it no longer has are dropped, not sent.
  useEffect(() => setPlacements((current) => keptPlacements(current, fields, allowOwn)), [fields, allowOwn]);
  const code = props.task.attributes.signatureType ?? 'operator';
  const info = types.data?.find((type) => type.id === code);
  const reason = file.error ?? file.failureReason;
  const scanning = reason instanceof ApiError && reason.code === 'DOCUMENT_BEING_SCANNED';

  return (
    <>
      <TaskFacts task={props.task} padesLevel={info?.attributes.padesLevel} />
      {types.isSuccess && !info && (
        <p role="status" className="notice">
          {t('sign.typeUnavailable')}
        </p>
      )}
      <ApiErrorNotice error={types.error} />
      <section aria-labelledby="sign-placements-title" className="panel">
        <h2 id="sign-placements-title">{t('placements.title')}</h2>
        <p className="hint">{t(fields.length > 0 ? 'fields.intro' : 'placements.intro')}</p>
        {scanning && (
          <p role="status" className="notice">
            {t('viewer.scanning')}
          </p>
        )}
        {file.error && !scanning && <ApiErrorNotice error={file.error} />}
        {file.data ? (
          <OpenedPdf namespace="signing" file={file.data.blob}>
            {(pdf) => (
              <PlacementBoard
                pdf={pdf}
                title={props.title}
                placements={placements}
                onChange={setPlacements}
                sealTool={MemberSealTool}
                fields={fields}
                allowOwn={allowOwn}
              />
            )}
          </OpenedPdf>
        ) : (
          !file.error &&
          !scanning && (
            <p role="status" className="muted">
              {t('viewer.loading')}
            </p>
          )
        )}
      </section>
      <section aria-labelledby="sign-form-title" className="panel">
        <h2 id="sign-form-title">{t('form.title')}</h2>
        {me.data && (
          <SignForm
            task={props.task}
            needs={info?.attributes}
            placements={placements}
            fields={fields}
            email={me.data.attributes.email}
            emailConfirmed={me.data.attributes.emailConfirmed}
            onReloadUser={() => void me.refetch()}
            onSigned={props.onSigned}
          />
        )}
      </section>
    </>
  );
}

/**
 * Signing a sign task: the document's pages with the seal, handwritten signature and text placements, then what
 * the task's type asks (PIN, principal, two-factor code) and the signature. After it, the signed PDF to download
 * and its verification report.
 */
export function SignTaskPage() {
  const { t } = useTranslation(['signing', 'common']);
  const { documentId, taskId } = route.useParams();
  const document_ = useDocument(documentId);
  const plan = useSignTask(documentId, taskId);
  const [signed, setSigned] = useState(false);
  const detail = document_.data;
  const task = plan.task;
  const runnable = task?.attributes.type === 'sign' && task.attributes.executableByMe;

  useEffect(() => {
    document.title = `${t('sign.title')} | ${t('common:appName')}`;
  }, [t]);

  return (
    <section aria-labelledby="sign-title" className="admin-screen sign-screen">
      <p className="back-link">
        <Link to="/organizations/documents/$documentId" params={{ documentId }}>
          {t('sign.back')}
          {detail ? `: ${detail.attributes.name}` : ''}
        </Link>
      </p>
      <h1 id="sign-title">{t('sign.title')}</h1>
      {detail && <p className="sign-document-name">{detail.attributes.name}</p>}
      <DetailStatus
        query={{ isPending: document_.isPending || plan.isPending, error: document_.error ?? plan.error }}
        loading={t('sign.loading')}
        notFound={t('sign.notFound')}
      />
      {signed ? (
        <SignedPanel documentId={documentId} />
      ) : (
        detail &&
        plan.isSuccess &&
        (task && runnable ? (
          <SignWorkspace
            documentId={documentId}
            title={detail.attributes.name}
            version={detail.attributes.currentVersion.version}
            task={task}
            onSigned={() => setSigned(true)}
          />
        ) : (
          <p role="status" className="notice">
            {task ? t('sign.notExecutable') : t('sign.notFound')}
          </p>
        ))
      )}
    </section>
  );
}
