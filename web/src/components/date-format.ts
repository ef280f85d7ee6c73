// Screens show dates and times as the user's organization lives them: in Japan time, in the interface language.

/** A date formatter (medium date style) in Japan time. */
export function japanDateFormat(language: string) {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'Asia/Tokyo' });
}

/** A date and time formatter (medium date, short time) in Japan time. */
export function japanDateTimeFormat(language: string) {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Tokyo' });
}
