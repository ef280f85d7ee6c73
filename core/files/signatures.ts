/**
 * Content signatures shared by upload inspection (core/files/inspect.ts) and the built-in malware-scan engine:
 * executable headers and the EICAR test string. Everything here looks at bytes only, never at a file name.
 */

// The EICAR test string, assembled from parts so that this source file itself is not flagged by scanners.
const EICAR = Buffer.from(
  ['X5O!P%@AP[4\\PZX54(P^)7CC)7}$', 'EICAR-STANDARD-', 'ANTIVIRUS-TEST-', 'FILE!$H+H*'].join(''),
  'latin1',
);

/** Magic numbers of executable (or executable-carrying) formats, with the name reported for each. */
const EXECUTABLE_MAGIC: readonly { name: string; magic: Buffer }[] = [
  { name: 'Windows executable (MZ/PE)', magic: Buffer.from('MZ', 'latin1') },
  { name: 'ELF executable', magic: Buffer.from([0x7f, 0x45, 0x4c, 0x46]) },
  { name: 'Mach-O executable', magic: Buffer.from([0xfe, 0xed, 0xfa, 0xce]) },
  { name: 'Mach-O executable', magic: Buffer.from([0xfe, 0xed, 0xfa, 0xcf]) },
  { name: 'Mach-O executable', magic: Buffer.from([0xce, 0xfa, 0xed, 0xfe]) },
  { name: 'Mach-O executable', magic: Buffer.from([0xcf, 0xfa, 0xed, 0xfe]) },
  // CAFEBABE is both a Mach-O fat binary and a Java class file: executable either way.
  { name: 'Mach-O fat binary or Java class', magic: Buffer.from([0xca, 0xfe, 0xba, 0xbe]) },
  { name: 'Mach-O fat binary', magic: Buffer.from([0xbe, 0xba, 0xfe, 0xca]) },
  { name: 'script with a shebang', magic: Buffer.from('#!', 'latin1') },
  { name: 'OLE compound document (MSI)', magic: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) },
];

/** The executable format `bytes` starts with, or null. */
export function detectExecutable(bytes: Uint8Array): string | null {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const { name, magic } of EXECUTABLE_MAGIC) {
    if (buffer.length >= magic.length && buffer.subarray(0, magic.length).equals(magic)) return name;
  }
  return null;
}

/** True when the EICAR anti-virus test string occurs anywhere in `bytes`. */
export function containsEicar(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(EICAR) >= 0;
}

/** The EICAR test string (for tests and the corpus generator; never stored as a file in the repository). */
export function eicarTestString(): Buffer {
  return Buffer.from(EICAR);
}
