// The 16-character access code of an invitation mail, for a guest whose mail client breaks links. The server reads
// it case-, space- and hyphen-insensitively; the screen shows it grouped as XXXX-XXXX-XXXX-XXXX while it is typed.

/** The code's alphabet: no 0/O, 1/I/L, so what is read off a mail is what is typed. */
const ALPHABET = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{16}$/;

/** The characters that count: letters and digits, upper case (spaces, hyphens and anything else dropped). */
export function accessCodeCharacters(text: string): string {
  return text
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
}

/** The code as it is shown while typed: groups of four joined by hyphens, at most 16 characters. */
export function formatAccessCode(text: string): string {
  const characters = accessCodeCharacters(text).slice(0, 16);
  return (characters.match(/.{1,4}/g) ?? []).join('-');
}

/** True when the text is a whole access code (16 characters of the alphabet). */
export function isAccessCode(text: string): boolean {
  return ALPHABET.test(accessCodeCharacters(text));
}

/** The 6-digit code the guest types: digits only (a pasted "123 456" still works). */
export function sixDigits(text: string): string {
  return text.replace(/\D/g, '').slice(0, 6);
}
