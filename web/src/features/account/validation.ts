/**
 * The server's rule for the number SMS codes go to (core/signing/sms.ts): a Japanese mobile number, 060/070/080/090
 * and 8 more digits, with spaces, hyphens and brackets dropped. The digits, or null when it is not one.
 */
export function mobileDigits(raw: string): string | null {
  const digits = raw.replace(/[\s\-()]/g, '');
  return /^0[6789]0\d{8}$/.test(digits) ? digits : null;
}
