import { useTranslation } from 'react-i18next';

export interface HistoryEvent {
  kind: string;
  reason: string | null;
  toOrder: number | null;
  actorName: string | null;
  at: string;
}

/** What happened to the document, newest first, with the reasons of remands and cancellations. */
export function HistoryPanel({ events }: { events: HistoryEvent[] }) {
  const { t, i18n } = useTranslation('documents');
  const sorted = [...events].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <section aria-labelledby="document-history-title" className="panel">
      <h2 id="document-history-title">{t('history.title')}</h2>
      {sorted.length === 0 ? (
        <p className="muted">{t('history.empty')}</p>
      ) : (
        <ol className="history-list">
          {sorted.map((event, index) => (
            <li key={`${event.at}-${index}`}>
              <p>
                <time dateTime={event.at}>{new Date(event.at).toLocaleString(i18n.language)}</time>{' '}
                <strong>{t(`history.kinds.${event.kind}`, { defaultValue: event.kind })}</strong>
                {event.actorName ? ` — ${event.actorName}` : ''}
              </p>
              {event.toOrder !== null && <p>{t('history.toOrder', { order: event.toOrder })}</p>}
              {event.reason && <p>{t('history.reason', { reason: event.reason })}</p>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
