import type { components } from '../../../core/contract/api.gen.ts';

export type DocumentType = components['schemas']['DocumentType'];

/** The contract's DocumentType values, in the order the selects show them. */
export const DOCUMENT_TYPES: readonly DocumentType[] = [
  'contract',
  'purchase_order',
  'order_confirmation',
  'invoice',
  'quotation',
  'delivery_note',
  'receipt',
  'other',
];
