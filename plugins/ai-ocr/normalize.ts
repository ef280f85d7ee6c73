/*
 * What a text read from a document (its text layer or OCR) means as a property value: dates in the Western and the
 * Japanese calendar, amounts with yen marks, thousands separators and 千/万/億 units, plain numbers, one of an enum's
 * options by the closest match, and trimmed text. Each reader answers null when the text does not hold a value of its
 * type, so a proposal is never made up. Groundwork of the ai-ocr plugin ([6/8]); pure functions, no I/O.
 */

/** Full-width digits, letters and signs as their ASCII forms, the ideographic space as a space (NFKC). */
export function halfWidth(text: string): string {
  return text.normalize('NFKC');
}

const KANJI_DIGITS: Record<string, number> = {
  〇: 0,
  零: 0,
  一: 1,
  壱: 1,
  二: 2,
  弐: 2,
  三: 3,
  参: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const KANJI_SMALL_UNITS: Record<string, number> = { 十: 10, 拾: 10, 百: 100, 千: 1000, 阡: 1000 };

/** A number written in kanji below 10,000 (二千二十六, 十二, 三〇), or null. */
function kanjiBelowTenThousand(text: string): number | null {
  if (text === '') return null;
  // Positional (二〇二六) when there is no unit character.
  if (![...text].some((c) => c in KANJI_SMALL_UNITS)) {
    if (![...text].every((c) => c in KANJI_DIGITS)) return null;
    return Number([...text].map((c) => KANJI_DIGITS[c]).join(''));
  }
  let total = 0;
  let digit: number | null = null;
  for (const c of text) {
    if (c in KANJI_DIGITS) {
      if (digit !== null) return null;
      digit = KANJI_DIGITS[c]!;
    } else if (c in KANJI_SMALL_UNITS) {
      total += (digit ?? 1) * KANJI_SMALL_UNITS[c]!;
      digit = null;
    } else {
      return null;
    }
  }
  return total + (digit ?? 0);
}

/** An integer in ASCII digits or kanji (元 is 1, as in 令和元年), or null. */
function integerOf(text: string): number | null {
  if (/^\d+$/.test(text)) return Number(text);
  if (text === '元') return 1;
  return kanjiBelowTenThousand(text);
}

/** Japanese eras: the first day of each, and its first year in the Western calendar. */
const ERAS = [
  { names: ['令和', 'R'], start: '2019-05-01' },
  { names: ['平成', 'H'], start: '1989-01-08' },
  { names: ['昭和', 'S'], start: '1926-12-25' },
] as const;

export interface DateReading {
  /** ISO 8601 calendar date, as date properties store it. */
  value: string;
  calendar: 'western' | 'japanese';
}

const pad = (n: number) => String(n).padStart(2, '0');

function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
}

const NUMERAL = '(\\d{1,4}|[〇零一二三四五六七八九十元]{1,6})';

/**
 * A date: 2026年4月1日, 2026/4/1, 2026-04-01, 2026.4.1, 令和8年4月1日, 令和元年5月1日, R8.4.1, 平成31年4月30日,
 * kanji numerals (令和八年四月一日) and full-width digits; spaces inside are ignored, a weekday after it too. A date
 * outside its era (平成32年) or that does not exist (2026/2/30) is null.
 */
export function readDate(raw: string): DateReading | null {
  const text = halfWidth(raw).replace(/\s+/g, '');
  const japanese = new RegExp(
    `(令和|平成|昭和|R|H|S)${NUMERAL}(?:年|[./-])${NUMERAL}(?:月|[./-])${NUMERAL}日?`,
    'i',
  ).exec(text);
  if (japanese) {
    const era = ERAS.find((e) => (e.names as readonly string[]).includes(japanese[1]!.toUpperCase()))!;
    const [eraYear, month, day] = [integerOf(japanese[2]!), integerOf(japanese[3]!), integerOf(japanese[4]!)];
    if (eraYear === null || month === null || day === null || eraYear < 1) return null;
    const year = Number(era.start.slice(0, 4)) + eraYear - 1;
    const value = isoDate(year, month, day);
    if (!value || value < era.start) return null;
    const next = ERAS[ERAS.indexOf(era) - 1];
    if (next && value >= next.start) return null;
    return { value, calendar: 'japanese' };
  }
  const western = /(\d{4})(?:年|[./-])(\d{1,2})(?:月|[./-])(\d{1,2})日?/.exec(text);
  if (western) {
    const value = isoDate(Number(western[1]), Number(western[2]), Number(western[3]));
    return value ? { value, calendar: 'western' } : null;
  }
  const kanjiWestern =
    /([〇零一二三四五六七八九十千]{2,6})年([〇一二三四五六七八九十]{1,3})月([〇一二三四五六七八九十]{1,3})日/.exec(
      text,
    );
  if (kanjiWestern) {
    const [year, month, day] = [integerOf(kanjiWestern[1]!), integerOf(kanjiWestern[2]!), integerOf(kanjiWestern[3]!)];
    if (year === null || month === null || day === null || year < 1000) return null;
    const value = isoDate(year, month, day);
    return value ? { value, calendar: 'western' } : null;
  }
  return null;
}

export interface AmountReading {
  /** The amount in yen (or the unit the text used), as a number property stores it. */
  value: number;
  /** 税込 (tax included) or 税抜/税別 (tax excluded), when the text says so. */
  tax: 'included' | 'excluded' | null;
}

const LARGE_UNITS: Record<string, number> = { 万: 1e4, 億: 1e8, 兆: 1e12 };

/** 12万3千, 1億2,000万, 1,234,000, 5千: digits (with separators) or kanji, with 千/万/億/兆 units; or null. */
function amountNumber(text: string): number | null {
  let total = 0;
  let rest = text;
  for (const unit of ['兆', '億', '万']) {
    const at = rest.indexOf(unit);
    if (at < 0) continue;
    const part = smallNumber(rest.slice(0, at));
    if (part === null) return null;
    total += part * LARGE_UNITS[unit]!;
    rest = rest.slice(at + 1);
  }
  if (rest !== '') {
    const part = smallNumber(rest);
    if (part === null) return null;
    total += part;
  } else if (total === 0) {
    return null;
  }
  return total;
}

/** A number below 10,000 of a unit group (or any number when no large unit was used): 1,234 / 3千 / 三千五百 / 1.5. */
function smallNumber(text: string): number | null {
  if (text === '') return 1;
  // Thousands separators, when used, group by three: 719,83079 is a misread, not an amount.
  if (/[,，、]/.test(text) && !/^\d{1,3}(?:[,，、]\d{3})+(?:\.\d+)?$/.test(text)) return null;
  const digits = text.replace(/[,，、]/g, '');
  if (/^\d+(?:\.\d+)?$/.test(digits)) return Number(digits);
  const withThousand = /^(\d+(?:\.\d+)?)千(\d*)$/.exec(digits);
  if (withThousand) return Number(withThousand[1]) * 1000 + Number(withThousand[2] || 0);
  return kanjiBelowTenThousand(text);
}

/**
 * An amount of money: ¥1,234,000, 1,234,000円, 金1,234,000円也, 123万円, 12万3千円, 1億2,000万円, full-width digits,
 * with 税込/税抜/税別 noted (消費税込み likewise). A text with two different amounts is null rather than a guess.
 */
export function readAmount(raw: string): AmountReading | null {
  const text = halfWidth(raw)
    .replace(/\s+/g, '')
    // Scans read a thousands comma as a dot (41..903,000円): yen amounts have no decimals in three digits.
    .replace(/(\d)[.,]{1,2}(?=\d{3}(?:\D|$))/g, '$1,')
    // ...and a speck after the amount as a full stop (¥6,096,213.).
    .replace(/(\d)\.(?!\d)/g, '$1');
  const tax = /税込|税込み|消費税込|内税/.test(text)
    ? 'included'
    : /税抜|税抜き|税別|外税/.test(text)
      ? 'excluded'
      : null;
  const pattern =
    /(?:[¥￥\\]|金)?((?:\d[\d,]*(?:\.\d+)?|[〇一二三四五六七八九十百千壱弐参拾阡]+)(?:[兆億万千](?:\d[\d,]*|[〇一二三四五六七八九十百千]+)?)*)(?:円|也|-|$|(?=[(\s税]))/g;
  const found = new Set<number>();
  for (const match of text.matchAll(pattern)) {
    const value = amountNumber(match[1]!);
    if (value !== null && value > 0) found.add(value);
  }
  if (found.size !== 1) return null;
  return { value: [...found][0]!, tax };
}

/** A plain number: 1,234.5, −12, ▲1,000 (a negative in Japanese accounts), full-width digits; or null. */
export function readNumber(raw: string): number | null {
  const text = halfWidth(raw)
    .replace(/\s+/g, '')
    .replace(/[−－‐]/g, '-');
  const match = /^(-|▲|△)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?$/.exec(text);
  if (!match) return null;
  const value = Number(match[2]!.replace(/,/g, '') + (match[3] ?? ''));
  return match[1] ? -value : value;
}

/** Text as read: NFKC-normalised spaces collapsed and trimmed; null when nothing is left. */
export function readText(raw: string): string | null {
  const text = raw.replace(/[\s\u3000]+/g, ' ').trim();
  return text === '' ? null : text;
}

function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length]!;
}

export interface EnumReading<V> {
  value: V;
  /** 1 for an exact match (after NFKC and spaces), less the more characters differ. */
  similarity: number;
}

/**
 * The enum option whose label is closest to the text (OCR confuses a character or two): exact or contained labels
 * first, else the smallest edit distance relative to the label's length; null below `minimum` similarity or when two
 * options are equally close.
 */
export function readEnum<V>(
  raw: string,
  options: readonly { value: V; label: string }[],
  minimum = 0.6,
): EnumReading<V> | null {
  const key = (s: string) => halfWidth(s).replace(/\s+/g, '').toLowerCase();
  const text = key(raw);
  if (text === '') return null;
  const scored = options.map((option) => {
    const label = key(option.label);
    if (label === text) return { option, similarity: 1 };
    if (label !== '' && text.includes(label)) return { option, similarity: 0.95 };
    const distance = editDistance(text, label);
    return { option, similarity: 1 - distance / Math.max(text.length, label.length, 1) };
  });
  scored.sort((a, b) => b.similarity - a.similarity);
  const [best, second] = scored;
  if (!best || best.similarity < minimum) return null;
  if (second && second.similarity === best.similarity) return null;
  return { value: best.option.value, similarity: best.similarity };
}
