/*
 * Turns the raw text read at a reading position into a proposed value of the property it names: dates as
 * yyyy-MM-dd, numbers and amounts as decimal text (an amount noted 税込/税抜 keeps the note), an enum option by the
 * closest label, text trimmed. A text that cannot be read as the property's type proposes no value (a person types
 * it); the confidence is the reader's, lowered by how loosely an enum label matched.
 */
import { readAmount, readDate, readEnum, readNumber, readText } from './normalize.ts';

/** Input type codes of custom properties (core/contract/property-values.ts INPUT_TYPES). */
const NUMBER = 10;
const STRING = 20;
const DATE = 30;
const ENUM = 40;
const YEN = 20;

export interface PropertyShape {
  inputType: number;
  numberUnit: number | null;
  options: { id: string; label: string }[];
}

export interface Proposal {
  value: string | null;
  note: 'taxIncluded' | 'taxExcluded' | null;
  confidence: number;
}

function numberProposal(raw: string, unit: number | null): Pick<Proposal, 'value' | 'note'> {
  const plain = unit === YEN ? null : readNumber(raw);
  if (plain !== null) return { value: String(plain), note: null };
  const amount = readAmount(raw);
  if (!amount) return { value: null, note: null };
  const note = amount.tax === 'included' ? 'taxIncluded' : amount.tax === 'excluded' ? 'taxExcluded' : null;
  return { value: String(amount.value), note };
}

export function propose(raw: string, confidence: number, property: PropertyShape): Proposal {
  switch (property.inputType) {
    case NUMBER:
      return { ...numberProposal(raw, property.numberUnit), confidence };
    case DATE:
      return { value: readDate(raw)?.value ?? null, note: null, confidence };
    case ENUM: {
      const match = readEnum(
        raw,
        property.options.map((o) => ({ value: o.id, label: o.label })),
      );
      return match
        ? { value: match.value, note: null, confidence: confidence * match.similarity }
        : { value: null, note: null, confidence };
    }
    case STRING:
    default:
      return { value: readText(raw), note: null, confidence };
  }
}
