import { useTranslation } from 'react-i18next';
import type { BoxUploadStatus } from '../api/box-uploads.ts';

const TONE: Record<BoxUploadStatus, string> = {
  queued: 'badge-muted',
  uploading: 'badge-info',
  done: 'badge-ok',
  failed: 'badge-danger',
};

/** An upload's status as a coloured badge. */
export function StatusBadge({ status }: { status: BoxUploadStatus }) {
  const { t } = useTranslation('box');
  return <span className={`badge ${TONE[status]}`}>{t(`statuses.${status}`)}</span>;
}
