import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { TableScroll } from '../../../components/data-list.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { type UsageCounts, type UsageRange, useUsage } from '../api/get-usage.ts';
import { BillingSection } from '../components/billing-section.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('usage', { ja, en });

const METRICS = ['documents', 'signatures', 'oneTimeUsers', 'ocrPages'] as const satisfies (keyof UsageCounts)[];
const MAX_MONTHS = 60;

/** Usage details (administrators): months × metrics with totals, for a chosen month range. */
export function UsagePage() {
  const { t, i18n } = useTranslation(['usage', 'common']);
  const [range, setRange] = useState<UsageRange>({ from: '', to: '' });
  const [draft, setDraft] = useState<UsageRange>({ from: '', to: '' });
  const [invalid, setInvalid] = useState(false);
  const usage = useUsage(range);
  const number = new Intl.NumberFormat(i18n.language);
  const monthName = (month: string) =>
    new Intl.DateTimeFormat(i18n.language, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(
      new Date(`${month}-01T00:00:00Z`),
    );

  useEffect(() => {
    document.title = `${t('title')} | ${t('common:appName')}`;
  }, [t]);
  // The form shows the range the API answered for (the default one included).
  const meta = usage.data?.meta;
  useEffect(() => {
    if (meta && !range.from && !range.to) setDraft({ from: meta.from, to: meta.to });
  }, [meta, range.from, range.to]);

  if (usage.error instanceof ApiError && usage.error.code === 'IP_RESTRICTED') throw usage.error;
  const forbidden = usage.error instanceof ApiError && usage.error.code === 'FUNCTION_NOT_PERMITTED';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const bad = Boolean(draft.from && draft.to && draft.from > draft.to);
    setInvalid(bad);
    if (!bad) setRange(draft);
  };

  return (
    <section aria-labelledby="usage-title" className="admin-screen usage">
      <h1 id="usage-title">{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      {forbidden ? (
        <p className="notice" role="status">
          {t('forbidden')}
        </p>
      ) : (
        <>
          {meta && <p>{t('plan', { plan: t(`plans.${meta.plan}`) })}</p>}
          <form className="usage-range" onSubmit={submit} noValidate>
            <fieldset>
              <legend>{t('range.legend')}</legend>
              <p id="usage-range-hint" className="hint">
                {t('range.hint')}
              </p>
              <div className="usage-range-fields">
                <div className="field">
                  <label htmlFor="usage-from">{t('range.from')}</label>
                  <input
                    id="usage-from"
                    type="month"
                    value={draft.from}
                    aria-describedby="usage-range-hint"
                    aria-invalid={invalid || undefined}
                    onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))}
                  />
                </div>
                <div className="field">
                  <label htmlFor="usage-to">{t('range.to')}</label>
                  <input
                    id="usage-to"
                    type="month"
                    value={draft.to}
                    aria-describedby="usage-range-hint"
                    aria-invalid={invalid || undefined}
                    onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))}
                  />
                </div>
                <button type="submit" className="button primary">
                  {t('range.apply')}
                </button>
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    setInvalid(false);
                    setRange({ from: '', to: '' });
                  }}
                >
                  {t('range.lastTwelve')}
                </button>
              </div>
              {invalid && (
                <p role="alert" className="field-error">
                  {t('range.invalid')}
                </p>
              )}
            </fieldset>
          </form>
          {usage.isPending && (
            <p role="status" className="muted">
              {t('loading')}
            </p>
          )}
          <ApiErrorNotice error={usage.error} params={{ max: MAX_MONTHS }} />
          {usage.data && meta && (
            <TableScroll label={t('table.label')}>
              <table className="data-table usage-table" aria-busy={usage.isFetching}>
                <caption>{t('table.caption', { from: monthName(meta.from), to: monthName(meta.to) })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('table.month')}</th>
                    {METRICS.map((metric) => (
                      <th key={metric} scope="col" className="cell-number">
                        {t(`table.metrics.${metric}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {usage.data.data.map(({ id, attributes }) => (
                    <tr key={id}>
                      <th scope="row">{monthName(attributes.month)}</th>
                      {METRICS.map((metric) => (
                        <td key={metric} className="cell-number">
                          {number.format(attributes[metric])}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row">{t('table.total')}</th>
                    {METRICS.map((metric) => (
                      <td key={metric} className="cell-number">
                        {number.format(meta.totals[metric])}
                      </td>
                    ))}
                  </tr>
                </tfoot>
              </table>
            </TableScroll>
          )}
          <BillingSection monthName={monthName} />
        </>
      )}
    </section>
  );
}
