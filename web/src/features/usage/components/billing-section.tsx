import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { TableScroll } from '../../../components/data-list.tsx';
import { useDownloadBillingStatement } from '../api/download-billing-statement.ts';
import { type BillingStatementDetails, useBillingPreview } from '../api/get-billing-preview.ts';
import { useBillingStatements } from '../api/list-billing-statements.ts';

type Line = BillingStatementDetails['lines'][number];

/** The translated name of a statement line's item (`signatures.party`, `option.aiOcr`, ...). */
function useItemLabel() {
  const { t } = useTranslation('usage');
  return (item: string) => {
    if (item.startsWith('signatures.')) {
      const type = item.slice('signatures.'.length);
      return t('billing.items.signature', {
        type: t(`billing.signatureTypes.${type}`, { defaultValue: type }),
      });
    }
    if (item.startsWith('option.')) return t('billing.items.optionFee', { option: 'AI-OCR' });
    if (item === 'aiOcr.ocrPages') return t('billing.items.ocrPages');
    return t(`billing.items.${item}`, { defaultValue: item });
  };
}

/** The current month computed live: its items and totals. */
function BillingPreview({ monthName }: { monthName: (month: string) => string }) {
  const { t, i18n } = useTranslation('usage');
  const preview = useBillingPreview();
  const label = useItemLabel();
  const yen = new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'JPY' });
  const number = new Intl.NumberFormat(i18n.language);
  if (!preview.data) return <ApiErrorNotice error={preview.error} />;
  const p = preview.data;
  const cells = (line: Line) => [
    number.format(line.quantity),
    number.format(line.included),
    number.format(line.billableQuantity),
    yen.format(line.unitPrice),
    yen.format(line.amount),
  ];
  return (
    <section aria-labelledby="billing-preview-title" className="billing-preview">
      <h3 id="billing-preview-title">{t('billing.preview.title', { month: monthName(p.month) })}</h3>
      <p className="muted">{t('billing.preview.note')}</p>
      {!p.issuerConfigured && (
        <p className="notice" role="status">
          {t('billing.preview.issuerNotConfigured')}
        </p>
      )}
      <TableScroll label={t('billing.preview.caption', { month: monthName(p.month) })}>
        <table className="data-table billing-lines">
          <caption>{t('billing.preview.caption', { month: monthName(p.month) })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('billing.lines.item')}</th>
              {(['quantity', 'included', 'billable', 'unitPrice', 'amount'] as const).map((column) => (
                <th key={column} scope="col" className="cell-number">
                  {t(`billing.lines.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {p.lines.map((line) => (
              <tr key={line.item}>
                <th scope="row">{label(line.item)}</th>
                {cells(line).map((value, index) => (
                  <td key={index} className="cell-number">
                    {value}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            {p.taxTotals.map((rate) => [
              <tr key={`subtotal-${rate.taxRatePercent}`}>
                <th scope="row" colSpan={5}>
                  {t('billing.totals.subtotal', { rate: rate.taxRatePercent })}
                </th>
                <td className="cell-number">{yen.format(rate.subtotal)}</td>
              </tr>,
              <tr key={`tax-${rate.taxRatePercent}`}>
                <th scope="row" colSpan={5}>
                  {t('billing.totals.tax', { rate: rate.taxRatePercent })}
                </th>
                <td className="cell-number">{yen.format(rate.tax)}</td>
              </tr>,
            ])}
            <tr>
              <th scope="row" colSpan={5}>
                {t('billing.totals.total')}
              </th>
              <td className="cell-number">
                <strong>{yen.format(p.total)}</strong>
              </td>
            </tr>
          </tfoot>
        </table>
      </TableScroll>
      <p className="muted">{t('billing.taxNote')}</p>
      <p className="muted">{t('billing.issuer', { name: p.issuer.name, number: p.issuer.registrationNumber ?? '' })}</p>
    </section>
  );
}

/** Invoices of the organization (administrators): the live preview and the issued statements with their files. */
export function BillingSection({ monthName }: { monthName: (month: string) => string }) {
  const { t, i18n } = useTranslation('usage');
  const statements = useBillingStatements();
  const download = useDownloadBillingStatement();
  const yen = new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'JPY' });
  const day = (date: string | null) =>
    date
      ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' }).format(
          new Date(`${date}T00:00:00Z`),
        )
      : '';
  return (
    <section aria-labelledby="billing-title" className="billing">
      <h2 id="billing-title">{t('billing.title')}</h2>
      <p className="muted">{t('billing.intro')}</p>
      <BillingPreview monthName={monthName} />
      <section aria-labelledby="billing-list-title">
        <h3 id="billing-list-title">{t('billing.list.title')}</h3>
        <ApiErrorNotice error={statements.error ?? download.error} />
        {statements.data && statements.data.data.length === 0 && <p className="muted">{t('billing.list.empty')}</p>}
        {statements.data && statements.data.data.length > 0 && (
          <TableScroll label={t('billing.list.label')}>
            <table className="data-table billing-statements">
              <caption>{t('billing.list.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('billing.list.month')}</th>
                  <th scope="col">{t('billing.list.number')}</th>
                  <th scope="col">{t('billing.list.kind')}</th>
                  <th scope="col">{t('billing.list.issuedOn')}</th>
                  <th scope="col" className="cell-number">
                    {t('billing.list.total')}
                  </th>
                  <th scope="col">{t('billing.list.files')}</th>
                </tr>
              </thead>
              <tbody>
                {statements.data.data.map(({ id, attributes: s }) => (
                  <tr key={id ?? s.month}>
                    <th scope="row">{monthName(s.month)}</th>
                    <td>{s.number}</td>
                    <td>
                      {t(`billing.kinds.${s.kind}`)}
                      {s.originalNumber && (
                        <div className="muted">{t('billing.list.original', { number: s.originalNumber })}</div>
                      )}
                    </td>
                    <td>{day(s.issuedOn)}</td>
                    <td className="cell-number">{yen.format(s.total)}</td>
                    <td>
                      {id && s.number && (
                        <div className="row-actions">
                          {(['pdf', 'csv'] as const).map((format) => (
                            <button
                              key={format}
                              type="button"
                              className="button"
                              aria-label={t(
                                format === 'pdf' ? 'billing.list.downloadPdf' : 'billing.list.downloadCsv',
                                {
                                  number: s.number,
                                },
                              )}
                              disabled={download.isPending}
                              onClick={() => download.mutate({ statementId: id, number: s.number!, format })}
                            >
                              {t(`billing.list.${format}`)}
                            </button>
                          ))}
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </section>
  );
}
