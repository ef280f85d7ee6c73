/*
 * The statement as an A4 PDF in Japanese (請求書, or 返還請求書 for a credit note): the qualified-invoice facts, a
 * table of items and the totals per tax rate, in Noto Sans JP embedded as a subset (cut by harfbuzz through
 * subset-font and embedded by pdf-lib with a ToUnicode map, so pdftotext reads it back) — the technique of the
 * completion certificate. Our own data only (no untrusted PDF is parsed), rendered once when a month is closed.
 */
import { randomBytes } from 'node:crypto';
import { PDFDocument, type PDFFont, type PDFPage, rgb } from '@cantoo/pdf-lib';
import { japaneseFont } from '../../core/plugins/index.ts';
import { itemLabel, type StatementDocument } from './statement.ts';
import { japaneseDate } from './months.ts';

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const yen = (value: number) => `${value < 0 ? '-' : ''}¥${Math.abs(value).toLocaleString('en-US')}`;
const count = (value: number) => value.toLocaleString('en-US');

/** Every string the PDF draws, in the order drawn. */
function texts(doc: StatementDocument) {
  const credit = doc.kind === 'creditNote';
  const header = [
    `${doc.recipient.name} 御中`,
    ...(doc.recipient.address ? [doc.recipient.address] : []),
    `${credit ? '返還請求書' : '請求書'}番号：${doc.number}`,
    `発行日：${japaneseDate(doc.issuedOn)}`,
    `取引期間：${japaneseDate(doc.periodStart)}〜${japaneseDate(doc.periodEnd)}`,
    ...(credit && doc.originalNumber ? [`対象の請求書：${doc.originalNumber}`] : []),
    ...(doc.dueOn ? [`お支払期限：${japaneseDate(doc.dueOn)}`] : []),
  ];
  const issuer = [doc.issuer.name, doc.issuer.address, `登録番号：${doc.issuer.registrationNumber ?? ''}`];
  const columns = ['項目', '数量', '含む数量', '請求数量', '単価', '金額', '税率'];
  const rows = doc.lines.map((l) => [
    itemLabel(l.item),
    count(l.quantity),
    count(l.included),
    count(l.billableQuantity),
    yen(l.unitPrice),
    yen(l.amount),
    `${l.taxRatePercent}%`,
  ]);
  const totals: [string, string][] = [
    ...doc.taxTotals.flatMap((t) => [
      [`${t.taxRatePercent}%対象 小計（税抜）`, yen(t.subtotal)] as [string, string],
      [`消費税（${t.taxRatePercent}%）`, yen(t.tax)] as [string, string],
    ]),
    [credit ? '返還額合計（税込）' : 'ご請求額合計（税込）', yen(doc.total)],
  ];
  const notes = [
    ...(doc.reason ? [`理由：${doc.reason}`] : []),
    ...(doc.paymentText ? [doc.paymentText] : []),
    '消費税は請求書ごと・税率ごとに1回計算し、1円未満を切り捨てています。',
    'この書類は事業者の電子証明書で署名されています。',
  ];
  return { title: credit ? '返還請求書' : '請求書', header, issuer, columns, rows, totals, notes };
}

interface Draw {
  page: PDFPage;
  font: PDFFont;
}

function text(d: Draw, value: string, x: number, y: number, size = 9, align: 'left' | 'right' = 'left') {
  const width = d.font.widthOfTextAtSize(value, size);
  d.page.drawText(value, { x: align === 'right' ? x - width : x, y, size, font: d.font, color: rgb(0, 0, 0) });
}

/** The statement's PDF (unsigned). */
export async function renderStatementPdf(doc: StatementDocument, createdAt: Date): Promise<Uint8Array> {
  const [{ default: subsetFont }, { default: fontkit }] = await Promise.all([
    import('subset-font'),
    import('@pdf-lib/fontkit'),
  ]);
  const t = texts(doc);
  const all = [t.title, ...t.header, ...t.issuer, ...t.columns, ...t.rows.flat(), ...t.totals.flat(), ...t.notes];
  const characters = [...new Set(all.join('').replace(/\s/g, ''))].join('') + ' ';
  const subset = await subsetFont(japaneseFont(), characters, { targetFormat: 'truetype', noLayoutClosure: true });
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const tag = Array.from(randomBytes(6), (b) => String.fromCharCode(65 + (b % 26))).join('');
  const font = await pdf.embedFont(subset, {
    subset: false,
    customName: `${tag}+NotoSansJP-Regular`,
    features: { liga: false, clig: false, dlig: false },
  });
  pdf.setTitle(`${t.title} ${doc.number}`);
  pdf.setProducer('Keiyaku');
  pdf.setCreator('Keiyaku');
  pdf.setCreationDate(createdAt);
  pdf.setModificationDate(createdAt);

  let d: Draw = { page: pdf.addPage([A4.width, A4.height]), font };
  const right = A4.width - MARGIN;
  let y = A4.height - MARGIN - 20;
  text(d, t.title, A4.width / 2 - font.widthOfTextAtSize(t.title, 20) / 2, y, 20);
  y -= 34;
  const top = y;
  for (const [i, line] of t.header.entries()) {
    text(d, line, MARGIN, y, i === 0 ? 12 : 9);
    y -= i === 0 ? 20 : 14;
  }
  let issuerY = top;
  for (const line of t.issuer) {
    text(d, line, right, issuerY, 9, 'right');
    issuerY -= 14;
  }
  y = Math.min(y, issuerY) - 16;
  // The total first, as Japanese invoices show it.
  const grand = t.totals[t.totals.length - 1]!;
  text(d, `${grand[0]}  ${grand[1]}`, MARGIN, y, 13);
  y -= 26;

  const x = [MARGIN, 300, 350, 400, 455, 515, right];
  const drawRow = (cells: string[], bold = false) => {
    if (y < MARGIN + 40) {
      d = { page: pdf.addPage([A4.width, A4.height]), font };
      y = A4.height - MARGIN;
    }
    text(d, cells[0]!, x[0]!, y, 9);
    for (let i = 1; i < cells.length; i++) text(d, cells[i]!, x[i]!, y, 9, 'right');
    d.page.drawLine({
      start: { x: MARGIN, y: y - 5 },
      end: { x: right, y: y - 5 },
      thickness: bold ? 0.8 : 0.3,
      color: rgb(0.7, 0.7, 0.7),
    });
    y -= 18;
  };
  drawRow(t.columns, true);
  for (const row of t.rows) drawRow(row);
  y -= 8;
  for (const [label, value] of t.totals) {
    text(d, label, 330, y, 10);
    text(d, value, right, y, 10, 'right');
    y -= 16;
  }
  y -= 12;
  for (const note of t.notes) {
    text(d, note, MARGIN, y, 8);
    y -= 12;
  }
  return pdf.save({ useObjectStreams: false });
}
