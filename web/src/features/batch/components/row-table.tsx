import { useTranslation } from 'react-i18next';
import { TableScroll } from '../../../components/data-list.tsx';
import type { BatchRow } from '../api/import-csv.ts';
import { rowReasons } from './row-reasons.ts';

/** The rows of a preview or a result: line, operation, key, what happens (or happened) and why a row failed. */
export function RowTable(props: { rows: BatchRow[]; applied: boolean; label: string }) {
  const { t, i18n } = useTranslation('batch');
  if (props.rows.length === 0) return <p className="muted">{t('noRows')}</p>;
  const outcomes = props.applied ? 'appliedOutcomes' : 'outcomes';
  return (
    <TableScroll label={props.label}>
      <table className="batch-table">
        <thead>
          <tr>
            <th scope="col">{t('columns.line')}</th>
            <th scope="col">{t('columns.operation')}</th>
            <th scope="col">{t('columns.key')}</th>
            <th scope="col">{t('columns.status')}</th>
            <th scope="col">{t('columns.reason')}</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.line} className={row.outcome === 'failed' ? 'batch-row-failed' : undefined}>
              <td>{row.line}</td>
              <td>{row.operation}</td>
              <td>{row.key}</td>
              <td>
                <span className={`batch-status batch-status-${row.outcome}`}>{t(`${outcomes}.${row.outcome}`)}</span>
              </td>
              <td>
                {row.errors.length > 0 && (
                  <ul className="batch-reasons">
                    {rowReasons(row, i18n.language).map((reason) => (
                      <li key={reason}>{reason}</li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
