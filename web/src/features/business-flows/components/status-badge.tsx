import { useTranslation } from 'react-i18next';

const CLASS: Record<string, string> = {
  draft: 'badge badge-muted',
  in_progress: 'badge badge-info',
  complete: 'badge badge-ok',
  completed: 'badge badge-ok',
  incomplete: 'badge badge-warn',
  remanded: 'badge badge-warn',
  cancelled: 'badge badge-muted',
};

/** A business flow's (or, with `document`, a document's) status as a coloured badge with its text. */
export function StatusBadge(props: { status: string; document?: boolean }) {
  const { t } = useTranslation('businessFlows');
  return (
    <span className={CLASS[props.status] ?? 'badge'}>
      {t(props.document ? `documentStatus.${props.status}` : `status.${props.status}`)}
    </span>
  );
}
