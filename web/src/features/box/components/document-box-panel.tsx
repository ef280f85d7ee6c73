import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCurrentUser } from '../../../session/current-user.ts';
import { inFlight, useDocumentBoxUpload, useSendDocumentToBox } from '../api/box-uploads.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { StatusBadge } from './status-badge.tsx';
import '../box.css';

registerCatalogue('box', { ja, en });

/**
 * The document screen's Box panel: shown for a completed document while the organization has the box feature
 * (GET /me `organization.features`). Anyone who may read the document sees how its upload is doing and why it
 * failed; administrators may send it (again) by hand.
 */
export function DocumentBoxPanel({ documentId, completed }: { documentId: string; completed: boolean }) {
  const me = useCurrentUser().data?.attributes;
  const enabled = Boolean(me?.organization.features?.includes('box'));
  if (!completed || !enabled) return null;
  return <Panel documentId={documentId} isAdmin={Boolean(me?.isAdmin)} />;
}

function Panel({ documentId, isAdmin }: { documentId: string; isAdmin: boolean }) {
  const { t, i18n } = useTranslation(['box', 'errors']);
  const upload = useDocumentBoxUpload(documentId);
  const send = useSendDocumentToBox(documentId);
  const when = japanDateTimeFormat(i18n.language);
  const attributes = upload.data?.attributes;
  const failed = attributes?.status === 'failed';

  return (
    <section aria-labelledby="document-box-title" className="panel document-box-panel" data-testid="document-box">
      <h2 id="document-box-title">{t('panel.title')}</h2>
      {upload.isPending && (
        <p role="status" className="muted">
          {t('panel.loading')}
        </p>
      )}
      <ApiErrorNotice error={upload.error} />
      {upload.data === null && <p className="muted">{t('panel.notSent')}</p>}
      {attributes && (
        <dl className="facts">
          <div>
            <dt>{t('panel.status')}</dt>
            <dd>
              <StatusBadge status={attributes.status} />
            </dd>
          </div>
          <div>
            <dt>{attributes.uploadedAt ? t('panel.uploadedAt') : t('panel.updatedAt')}</dt>
            <dd>{when.format(new Date(attributes.uploadedAt ?? attributes.updatedAt))}</dd>
          </div>
        </dl>
      )}
      {/* A refused manual send is newer news than the last attempt's failure: one message at a time. */}
      {attributes?.errorCode && !send.error && (
        <div
          role={failed ? 'alert' : 'status'}
          className={failed ? 'form-error' : 'muted'}
          data-testid="box-upload-error"
        >
          <p>{t(`errors:${attributes.errorCode}`)}</p>
        </div>
      )}
      <ApiErrorNotice error={send.error} />
      {isAdmin && upload.data !== undefined && !inFlight(upload.data) && (
        <div className="org-actions">
          <button
            type="button"
            className="button primary"
            disabled={send.isPending}
            onClick={() => send.mutate(undefined, { onSuccess: () => toast.success(t('panel.queued')) })}
          >
            {send.isPending
              ? t('panel.sending')
              : attributes?.status === 'done'
                ? t('panel.sendAgain')
                : t('panel.send')}
          </button>
          <Link to="/organizations/settings/box" className="box-settings-link">
            {t('panel.settings')}
          </Link>
        </div>
      )}
    </section>
  );
}
