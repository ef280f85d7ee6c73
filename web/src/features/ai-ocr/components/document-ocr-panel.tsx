import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCurrentUser } from '../../../session/current-user.ts';
import { useDocumentProperties } from '../api/document-properties.ts';
import {
  inFlight,
  type OcrDecision,
  type OcrReading,
  useDecideDocumentOcr,
  useDocumentOcr,
  useStartDocumentOcr,
} from '../api/document-ocr.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { OcrPagePreview } from './ocr-page-preview.tsx';
import { ProposalRow } from './proposal-row.tsx';
import '../ai-ocr.css';

registerCatalogue('aiOcr', { ja, en });

const TONE: Record<OcrReading['attributes']['status'], string> = {
  none: 'badge-muted',
  queued: 'badge-muted',
  reading: 'badge-info',
  done: 'badge-ok',
  failed: 'badge-danger',
  skipped: 'badge-danger',
};

/** What the document screen tells the panel about the document and the viewer. */
export interface DocumentOcrPanelProps {
  documentId: string;
  title: string;
  /** The viewer may change the document's properties (decides proposals). */
  canEdit: boolean;
  /** The viewer belongs to the workspace owner organization (may ask for a reading). */
  ownerSide: boolean;
  /** The document's newest version: a clean scan of it queues the automatic reading. */
  version: { version: number; scanStatus: string; uploadedAt: string };
}

/**
 * The document screen's AI-OCR panel, shown while the organization has the aiOcr feature (GET /me
 * `organization.features`): how the latest reading is going, the values it proposes, and for editors the reading
 * by hand and the decisions. A decided value is written into the document, whose properties are then reloaded.
 */
export function DocumentOcrPanel(props: DocumentOcrPanelProps) {
  const features = useCurrentUser().data?.attributes.organization.features;
  if (!features?.includes('aiOcr')) return null;
  return <Panel {...props} />;
}

/** How long after a version's upload or clean scan the panel waits for the automatic reading to be queued. */
const AWAIT_READING_MS = 120_000;

/**
 * The version whose automatic reading may still be on its way: while it is being scanned, and for a while after
 * it was uploaded or this screen saw its scan turn clean (the reading is queued by a job after the verdict).
 * Null when nothing is awaited (no template with positions, say, leaves the reading at `none` for good).
 */
function useAwaitedVersion(version: DocumentOcrPanelProps['version']): number | null {
  const [cleanAt, setCleanAt] = useState<number | null>(null);
  const previous = useRef(version.scanStatus);
  useEffect(() => {
    if (previous.current === 'pending' && version.scanStatus === 'clean') setCleanAt(Date.now());
    previous.current = version.scanStatus;
  }, [version.scanStatus]);
  if (version.scanStatus === 'pending') return version.version;
  if (version.scanStatus !== 'clean') return null;
  const since = Math.max(Date.parse(version.uploadedAt), cleanAt ?? 0);
  return Date.now() - since < AWAIT_READING_MS ? version.version : null;
}

function Status({ reading }: { reading: OcrReading }) {
  const { t } = useTranslation(['aiOcr', 'errors']);
  const { status, progress, error } = reading.attributes;
  return (
    <>
      <p className="ocr-status">
        <span className={`badge ${TONE[status]}`}>{t(`statuses.${status}`)}</span>
      </p>
      {inFlight(reading) && (
        <div className="ocr-progress" role="status">
          <progress
            max={Math.max(1, progress.pagesTotal)}
            value={progress.pagesDone}
            aria-label={t('panel.progress')}
          />
          <span>{t('panel.pages', { done: progress.pagesDone, total: progress.pagesTotal })}</span>
        </div>
      )}
      {error && (
        <p
          role={status === 'failed' ? 'alert' : 'status'}
          className={status === 'failed' ? 'form-error' : 'notice'}
          data-testid="ocr-error"
        >
          {t(`errors:${error.code}`)}
        </p>
      )}
    </>
  );
}

function Panel({ documentId, title, canEdit, ownerSide, version }: DocumentOcrPanelProps) {
  const { t } = useTranslation('aiOcr');
  const reading = useDocumentOcr(documentId, useAwaitedVersion(version));
  const start = useStartDocumentOcr(documentId);
  const decide = useDecideDocumentOcr(documentId);
  const properties = useDocumentProperties(ownerSide).data ?? [];
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const attributes = reading.data?.attributes;
  const proposals = attributes?.proposals ?? [];
  const acceptable = proposals.filter((p) => p.status === 'proposed' && p.value !== null);
  const send = (decisions: OcrDecision[]) =>
    decide.mutate(decisions, { onSuccess: () => toast.success(t('panel.decided')) });

  return (
    <section aria-labelledby="document-ocr-title" className="panel document-ocr-panel" data-testid="document-ocr">
      <h2 id="document-ocr-title">{t('panel.title')}</h2>
      {reading.isPending && (
        <p role="status" className="muted">
          {t('panel.loading')}
        </p>
      )}
      <ApiErrorNotice error={reading.error} />
      {reading.data && <Status reading={reading.data} />}
      {attributes?.status === 'none' && <p className="muted">{t('panel.never')}</p>}
      {attributes?.status === 'done' && proposals.length === 0 && <p className="muted">{t('panel.noProposals')}</p>}
      <ApiErrorNotice error={start.error} />
      {canEdit && ownerSide && reading.data && !inFlight(reading.data) && (
        <div className="org-actions">
          <button
            type="button"
            className="button"
            disabled={start.isPending}
            onClick={() => start.mutate(undefined, { onSuccess: () => toast.success(t('panel.queued')) })}
          >
            {start.isPending ? t('panel.starting') : t('panel.start')}
          </button>
        </div>
      )}
      {proposals.length > 0 && (
        <div className="ocr-layout">
          <OcrPagePreview
            documentId={documentId}
            version={attributes?.version ?? null}
            title={title}
            proposals={proposals}
            highlighted={highlighted}
          />
          <div>
            <ApiErrorNotice error={decide.error} />
            {canEdit && acceptable.length > 0 && (
              <button
                type="button"
                className="button primary"
                disabled={decide.isPending}
                onClick={() => send(acceptable.map((p) => ({ proposalId: p.id, action: 'accept' as const })))}
              >
                {t('panel.acceptAll', { count: acceptable.length })}
              </button>
            )}
            <ul className="plain-list ocr-proposals" onPointerLeave={() => setHighlighted(null)}>
              {proposals.map((proposal) => (
                <ProposalRow
                  key={proposal.id}
                  proposal={proposal}
                  property={properties.find((p) => p.id === proposal.propertyId)}
                  canDecide={canEdit}
                  pending={decide.isPending}
                  onHighlight={setHighlighted}
                  onDecide={(decision) => send([decision])}
                />
              ))}
            </ul>
          </div>
        </div>
      )}
    </section>
  );
}
