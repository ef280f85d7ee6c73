/*
 * What an issued statement holds (the `statement` JSON of billing_statements): every fact a qualified invoice
 * (適格請求書) must show — issuer and registration number, recipient, transaction period, items with their rate,
 * totals and tax per rate, issue date — plus the plan, options and usage counters it was computed from.
 */
import type { PlanCode, StatementFigures } from './compute.ts';

export interface BillingParty {
  name: string;
  address: string;
  registrationNumber: string | null;
  corporateNumber: string | null;
}

export interface StatementDocument extends StatementFigures {
  kind: 'invoice' | 'creditNote';
  month: string;
  number: string;
  issuedOn: string;
  periodStart: string;
  periodEnd: string;
  dueOn: string | null;
  plan: PlanCode;
  options: string[];
  usage: Record<string, number>;
  issuer: BillingParty;
  recipient: BillingParty;
  paymentText: string | null;
  reason: string | null;
  originalId: string | null;
  originalNumber: string | null;
}

/** A row of billing_statements. */
export interface StatementRow {
  id: string;
  organization_id: string;
  kind: 'invoice' | 'creditNote';
  month: string;
  number: string;
  original_id: string | null;
  subtotal: string | number;
  tax: string | number;
  total: string | number;
  statement: StatementDocument;
  pdf: Buffer | null;
  pdf_sha256: string | null;
  csv: Buffer | null;
  csv_sha256: string | null;
  created_at: Date;
  files_at: Date | null;
}

/** Invoice numbers are sequential per issuer, with the month for people: INV-202611-000042. */
export const invoiceNumber = (month: string, sequence: number) =>
  `INV-${month.replace('-', '')}-${String(sequence).padStart(6, '0')}`;
/** Credit notes count on their own: CN-202612-000007 (the month it was issued in). */
export const creditNoteNumber = (month: string, sequence: number) =>
  `CN-${month.replace('-', '')}-${String(sequence).padStart(6, '0')}`;

const SIGNATURE_TYPES: Record<string, string> = {
  party: '当事者型（電子証明書）',
  proxy: '代理署名（電子証明書）',
  advanced: '高度電子署名',
  operator: '立会人型（事業者署名）',
  handwritten: '手書きサイン',
  'seal-image': '印影',
  timestamp: 'タイムスタンプのみ',
  'long-term': '長期署名',
};

/** The Japanese name of a line's item, as the PDF and the CSV print it. */
export function itemLabel(item: string): string {
  if (item === 'baseFee') return '基本料金';
  if (item === 'documents') return '書類';
  if (item === 'timestamps') return 'タイムスタンプ';
  if (item === 'oneTimeUsers') return 'ワンタイムユーザー';
  if (item === 'adjustment') return '調整';
  if (item === 'option.aiOcr') return 'AI-OCR 月額料金';
  if (item === 'aiOcr.ocrPages') return 'AI-OCR 読み取りページ';
  if (item.startsWith('signatures.')) {
    const type = item.slice('signatures.'.length);
    return `署名：${SIGNATURE_TYPES[type] ?? type}`;
  }
  if (item.startsWith('option.')) return `${item.slice('option.'.length)} 月額料金`;
  return item;
}
