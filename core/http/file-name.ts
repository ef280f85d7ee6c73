/*
 * File names as the client sent them can lie: "invoice\u202Efdp.exe" shows as "invoiceexe.pdf" wherever it is
 * displayed (U+202E RIGHT-TO-LEFT OVERRIDE), and zero-width or other invisible characters make two names look alike.
 * Uploaded names are cleaned once when the upload is read (core/http/multipart-body.ts) and again when a name stored
 * before that cleaning is served (Content-Disposition of downloads).
 */

// \p{Cf}: format characters — the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the marks
// U+200E, U+200F and U+061C, zero-width characters, the soft hyphen, U+FEFF and the tag characters.
// \p{Cc}, \p{Zl}, \p{Zp}: control characters (NUL, tab, line breaks, DEL, C1) and the Unicode line and paragraph
// separators, which have no place in a file name.
const HIDDEN = /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}]/gu;

/** The file name without format, control and line-separator characters (bidi overrides and marks among them). */
export function cleanFileName(name: string): string {
  return name.replace(HIDDEN, '');
}
