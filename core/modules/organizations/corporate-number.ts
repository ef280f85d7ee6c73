/**
 * Checks a Japanese corporate number: 13 digits whose first is a check digit over the other twelve
 * (with Pn the n-th digit from the right and Qn = 1 for odd n, 2 for even n: check = 9 - (sum Pn*Qn mod 9)).
 */
export function isValidCorporateNumber(value: string): boolean {
  if (!/^[0-9]{13}$/.test(value)) return false;
  const body = value.slice(1);
  let sum = 0;
  for (let n = 1; n <= 12; n++) {
    const digit = Number(body[12 - n]);
    sum += digit * (n % 2 === 1 ? 1 : 2);
  }
  return Number(value[0]) === 9 - (sum % 9);
}
