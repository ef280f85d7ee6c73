/*
 * Signatures found by their bytes: every /ByteRange of a PDF and the DER in the /Contents hole it leaves. A naive
 * reading, fooled by a gap that is not a clean hex string: verification finds signatures through the object model
 * (signature-fields.ts). Tests use it as an extraction independent of ours; signPdf to see whether a PDF we stored
 * carries any signature before certifying it.
 */

/** Every signature's /Contents (the CMS or token DER) in file order, by scanning the ByteRanges. */
export function signatureContents(pdf: Uint8Array): { byteRange: [number, number, number, number]; der: Uint8Array }[] {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const found: { byteRange: [number, number, number, number]; der: Uint8Array }[] = [];
  const pattern = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const byteRange = match.slice(1, 5).map(Number) as [number, number, number, number];
    const hole = text.slice(byteRange[0] + byteRange[1], byteRange[2]);
    const hex = /^<([0-9A-Fa-f]*)>$/.exec(hole.trim())?.[1];
    if (hex === undefined) continue;
    found.push({ byteRange, der: trimDer(Buffer.from(hex, 'hex')) });
  }
  return found;
}

/** The DER value without the zero padding that fills the rest of /Contents. */
export function trimDer(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 2 || bytes[0] !== 0x30) return bytes;
  const first = bytes[1]!;
  if (first < 0x80) return bytes.subarray(0, 2 + first);
  const lengthBytes = first & 0x7f;
  let length = 0;
  for (let i = 0; i < lengthBytes; i++) length = length * 256 + bytes[2 + i]!;
  return bytes.subarray(0, Math.min(bytes.length, 2 + lengthBytes + length));
}
