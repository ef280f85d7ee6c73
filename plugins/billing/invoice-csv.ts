import { CSV_BOM, csvRecord } from '../../core/plugins/index.ts';
import { itemLabel, type StatementDocument } from './statement.ts';

const HEADER = ['請求書番号', '項目', '数量', '基本料金に含む数量', '請求数量', '単価', '金額', '税率'];

/**
 * The statement as CSV for spreadsheets: UTF-8 with BOM, one record per item, then a record per rate for the
 * subtotal and the consumption tax and one for the total (numbers as numbers; text through core's guarded writer,
 * so an organization name or reason starting with `=` is never a formula).
 */
export function renderStatementCsv(doc: StatementDocument): Buffer {
  const records = [
    csvRecord(HEADER),
    ...doc.lines.map((l) =>
      csvRecord([
        doc.number,
        itemLabel(l.item),
        l.quantity,
        l.included,
        l.billableQuantity,
        l.unitPrice,
        l.amount,
        `${l.taxRatePercent}%`,
      ]),
    ),
    ...doc.taxTotals.flatMap((t) => [
      csvRecord([
        doc.number,
        `${t.taxRatePercent}%対象 小計（税抜）`,
        null,
        null,
        null,
        null,
        t.subtotal,
        `${t.taxRatePercent}%`,
      ]),
      csvRecord([doc.number, `消費税（${t.taxRatePercent}%）`, null, null, null, null, t.tax, `${t.taxRatePercent}%`]),
    ]),
    csvRecord([doc.number, '合計（税込）', null, null, null, null, doc.total, null]),
  ];
  return Buffer.from(CSV_BOM + records.join(''), 'utf8');
}
