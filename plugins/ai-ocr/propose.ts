/*
 * Turns the raw text read at a reading position into a proposed value of the property it names: dates as
 * yyyy-MM-dd, numbers and amounts as decimal text (an amount noted 税込/税抜 keeps the note), an enum option by the
 * closest label, text trimmed. A text that cannot be read as the property's type proposes no value (a person types
 * it); the confidence is the reader's, lowered by how loosely an enum label matched.
 */
import { INPUT_TYPES, NUMBER_UNITS } from '../../core/plugins/index.ts';
import { readAmount, readDate, readEnum, readNumber, readText } from './normalize.ts';

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
  const plain = unit === NUMBER_UNITS.yen ? null : readNumber(raw);
  if (plain !== null) return { value: String(plain), note: null };
  const amount = readAmount(raw);
  if (!amount) return { value: null, note: null };
  const note = amount.tax === 'included' ? 'taxIncluded' : amount.tax === 'excluded' ? 'taxExcluded' : null;
  return { value: String(amount.value), note };
}

export function propose(raw: string, confidence: number, property: PropertyShape): Proposal {
  switch (property.inputType) {
    case INPUT_TYPES.number:
      return { ...numberProposal(raw, property.numberUnit), confidence };
    case INPUT_TYPES.date:
      return { value: readDate(raw)?.value ?? null, note: null, confidence };
    case INPUT_TYPES.enum: {
      const match = readEnum(
        raw,
        property.options.map((o) => ({ value: o.id, label: o.label })),
      );
      return match
        ? { value: match.value, note: null, confidence: confidence * match.similarity }
        : { value: null, note: null, confidence };
    }
    case INPUT_TYPES.string:
    default:
      return { value: readText(raw), note: null, confidence };
  }
}
