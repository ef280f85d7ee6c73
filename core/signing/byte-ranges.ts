/*
 * Signatures found by their bytes: every /ByteRange of a PDF and the DER in the /Contents hole it leaves, without
 * trusting the PDF's object structure (a damaged or tampered file still shows what it claims to have signed).
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

/**
 * Every signature's whole /Contents string as stored, in file order: the hex string between `<` and `>` in the
 * ByteRange gap decoded, zero padding included (what ISO 32000-2 §12.8.4.4 hashes for a VRI key).
 */
export function storedSignatureContents(
  pdf: Uint8Array,
): { byteRange: [number, number, number, number]; contents: Uint8Array }[] {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const found: { byteRange: [number, number, number, number]; contents: Uint8Array }[] = [];
  const pattern = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const byteRange = match.slice(1, 5).map(Number) as [number, number, number, number];
    const hole = text.slice(byteRange[0] + byteRange[1], byteRange[2]);
    const hex = /^<([0-9A-Fa-f\s]*)>$/.exec(hole.trim())?.[1]?.replace(/\s+/g, '');
    if (hex === undefined) continue;
    // ISO 32000-1 §7.3.4.3: an odd final digit is followed by an implied 0.
    found.push({ byteRange, contents: new Uint8Array(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex')) });
  }
  return found;
}
