import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { TableScroll } from '../../../components/data-list.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import {
  ATTEMPT_PAGE_SIZE,
  type DeliveryAttempt,
  useDeliveryAttempts,
  useReplayDelivery,
} from '../api/webhook-deliveries.ts';

/** One endpoint's delivery attempts, newest first, with the response code or error and a replay button. */
export function DeliveryLog({ endpointId, enabled }: { endpointId: string; enabled: boolean }) {
  const { t, i18n } = useTranslation('webhooks');
  const [page, setPage] = useState(1);
  const attempts = useDeliveryAttempts(endpointId, page);
  const replay = useReplayDelivery(endpointId);
  const client = useQueryClient();
  const newest = attempts.data?.data[0]?.id;
  // A new attempt may change the endpoint's state (last success, failing since, disabled): read it again.
  useEffect(() => {
    if (newest) void client.invalidateQueries({ queryKey: ['webhook-endpoints'] });
  }, [newest, client]);
  const when = japanDateTimeFormat(i18n.language);
  const total = attempts.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ATTEMPT_PAGE_SIZE));
  const result = (a: DeliveryAttempt) => t(`log.outcomes.${a.outcome}`, { code: a.statusCode ?? '' });

  return (
    <section aria-labelledby={`webhook-log-${endpointId}`} className="webhook-log">
      <h3 id={`webhook-log-${endpointId}`}>{t('log.title')}</h3>
      <ApiErrorNotice error={attempts.error ?? replay.error} />
      {attempts.data && attempts.data.data.length === 0 && <p className="muted">{t('log.empty')}</p>}
      {attempts.data && attempts.data.data.length > 0 && (
        <TableScroll label={t('log.label')}>
          <table className="data-table webhook-log-table">
            <thead>
              <tr>
                <th scope="col">{t('log.attemptedAt')}</th>
                <th scope="col">{t('log.event')}</th>
                <th scope="col" className="cell-number">
                  {t('log.attempt')}
                </th>
                <th scope="col">{t('log.result')}</th>
                <th scope="col" className="cell-number">
                  {t('log.duration')}
                </th>
                <th scope="col">
                  <span className="visually-hidden">{t('log.replay')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {attempts.data.data.map(({ id, attributes: a }) => (
                <tr key={id} className={a.outcome === 'success' ? undefined : 'webhook-row-failed'}>
                  <td className="webhook-wrap">{when.format(new Date(a.attemptedAt))}</td>
                  <td className="webhook-wrap">{t(`events.${a.eventType}`, { defaultValue: a.eventType })}</td>
                  <td className="cell-number">
                    {t('log.attemptValue', { attempt: a.attempt })}
                    {a.trigger === 'scheduled' ? '' : t(`log.triggers.${a.trigger}`)}
                  </td>
                  <td className={a.outcome === 'success' ? 'webhook-ok' : 'webhook-failed'}>{result(a)}</td>
                  <td className="cell-number">{t('log.durationValue', { ms: a.durationMs })}</td>
                  <td>
                    <button
                      type="button"
                      className="button small"
                      disabled={!enabled || replay.isPending}
                      onClick={() => replay.mutate(a.deliveryId, { onSuccess: () => toast.success(t('log.replayed')) })}
                    >
                      {t('log.replay')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {pages > 1 && (
        <div className="org-actions">
          <button type="button" className="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('log.previous')}
          </button>
          <span className="muted">{t('log.page', { page, pages })}</span>
          <button type="button" className="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('log.next')}
          </button>
        </div>
      )}
    </section>
  );
}
