import { INPUT_TYPES, NUMBER_UNITS } from '../../../../core/contract/property-values.ts';

type Language = 'ja' | 'en';
const languageOf = (language: string): Language => (language.startsWith('en') ? 'en' : 'ja');

/** A yyyy-MM-dd date as 2026年4月1日 (ja) or April 1, 2026 (en); anything else as it is. */
export function formatDate(value: string, language: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (languageOf(language) === 'ja') return `${year}年${month}月${day}日`;
  const date = new Date(Date.UTC(year, month - 1, day));
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** Decimal text with grouping commas in its integer part (as text: 15 digits do not survive a float). */
export function groupDigits(value: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(value);
  if (!match) return value;
  return `${match[1]}${match[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${match[3] ?? ''}`;
}

/** A number: grouped, with 円 (ja) or ¥ (en) when the property counts yen. */
export function formatNumber(value: string, language: string, yen: boolean): string {
  const grouped = groupDigits(value);
  if (!yen) return grouped;
  return languageOf(language) === 'ja' ? `${grouped}円` : `¥${grouped}`;
}

/** What a proposal needs to show its value. */
export interface ProposedValue {
  inputType: number | null;
  value: string | null;
  label: string | null;
}

/**
 * A proposed value as a person reads it: dates in words, amounts grouped with their currency, an option by its
 * label, text as read; null when nothing could be read as the property's type.
 */
export function formatProposedValue(proposal: ProposedValue, language: string, numberUnit?: number | null) {
  if (proposal.value === null) return null;
  switch (proposal.inputType) {
    case INPUT_TYPES.date:
      return formatDate(proposal.value, language);
    case INPUT_TYPES.number:
      return formatNumber(proposal.value, language, numberUnit === NUMBER_UNITS.yen);
    case INPUT_TYPES.enum:
      return proposal.label ?? proposal.value;
    default:
      return proposal.value;
  }
}

/** A confidence from 0 to 1 as a whole percentage. */
export const percent = (confidence: number) => `${Math.round(confidence * 100)}%`;
