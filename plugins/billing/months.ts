// Calendar arithmetic in Japan Standard Time (UTC+9, no daylight saving): usage months and invoice dates.
const JST_OFFSET_MS = 9 * 60 * 60 * 1000;

/** The first instant after a JST month (`YYYY-MM`): 2026-11 ends at 2026-11-30T15:00:00Z. */
export function monthEnd(month: string): Date {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, mon, 1) - JST_OFFSET_MS);
}

/** The transaction period of a month: its first and last day (`YYYY-MM-DD`). */
export function periodOf(month: string): { start: string; end: string } {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const lastDay = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  return { start: `${month}-01`, end: `${month}-${String(lastDay).padStart(2, '0')}` };
}

/** The JST calendar date of an instant (`YYYY-MM-DD`). */
export function tokyoDate(at: Date): string {
  return new Date(at.getTime() + JST_OFFSET_MS).toISOString().slice(0, 10);
}

/** A date (`YYYY-MM-DD`) `days` days later. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** `2026-11-30` as 2026年11月30日. */
export function japaneseDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return `${year}年${month}月${day}日`;
}
