/*
 * Measuring a stream the way pdf-lib will decode it, for the few streams zlib refuses. pdf-lib's decoders (ported from
 * pdf.js) are more lenient than zlib (no checksum, no check of back-references), so a stream zlib rejects at its
 * first bytes may still inflate to a gigabyte in pdf-lib; and an encrypted file's object streams are inflated only
 * after decryption. Here the same decoders run, with the same decryption, a megabyte at a time, and stop at the
 * budget's room. Slower than zlib (pure JavaScript), so only used where zlib cannot answer.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  decodePDFRawStream,
  PDFArray,
  PDFRawStream,
  PDFContext,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFObjectParser,
  PDFString,
} from '@cantoo/pdf-lib';
import { PdfBudgetExceeded } from './pdf-budget.ts';

const CHUNK = 1024 * 1024;

/** A decryption transform of pdf-lib's (one per object), as decodePDFRawStream takes it. */
type Transform = NonNullable<Parameters<typeof decodePDFRawStream>[0]['transform']>;

/** Makes the transform that decrypts object `num` `gen`'s stream. */
export type Decryptor = (num: number, gen: number) => Transform;

/**
 * The bytes pdf-lib decodes from a stream with dictionary `dictText` (`<< … >>`) and data `contents`, decrypted by
 * `transform` when given; null when pdf-lib could not parse the dictionary. Throws PdfBudgetExceeded past `room`
 * bytes. Whatever was decoded before pdf-lib's decoder gave up is returned, as its parser would have used it.
 */
export function decodeAsParser(
  dictText: string,
  contents: Uint8Array,
  room: number,
  transform?: Transform,
): Uint8Array | null {
  let dict: unknown;
  try {
    dict = PDFObjectParser.forBytes(Buffer.from(dictText, 'latin1'), PDFContext.create()).parseObject();
  } catch {
    return null;
  }
  if (!(dict instanceof PDFDict)) return null;
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    const raw = PDFRawStream.of(dict, contents, transform);
    const stream = decodePDFRawStream(raw);
    for (;;) {
      const chunk = stream.getBytes(CHUNK);
      if (chunk.length === 0) break;
      total += chunk.length;
      if (total > room) throw new PdfBudgetExceeded(`a stream inflates to more than ${room} bytes (as parsed)`);
      chunks.push(new Uint8Array(chunk));
    }
  } catch (error) {
    if (error instanceof PdfBudgetExceeded) throw error;
    // The decoder gave up (broken data, an unknown filter): what it produced so far is all a parser gets.
  }
  return Buffer.concat(chunks);
}

type CipherFactory = { createCipherTransform(num: number, gen: number): Transform };

/**
 * The decryptor of an encrypted document (parsed without decrypting) with the empty user password, as pdf-lib's
 * own loader would build it; null when the file is not encrypted or does not open with the empty password.
 */
export async function emptyPasswordDecryptor(document: PDFDocument): Promise<Decryptor | null> {
  const { context } = document;
  const encrypt = context.lookup(context.trailerInfo.Encrypt);
  const ids = context.lookup(context.trailerInfo.ID);
  const id = ids instanceof PDFArray ? ids.get(0) : undefined;
  if (!(encrypt instanceof PDFDict) || !(id instanceof PDFHexString || id instanceof PDFString)) return null;
  // pdf-lib's decryption (ported from pdf.js) is not exported; it is loaded from the same ES build pdf-lib uses, so
  // its names are the ones the parsed dictionary holds (core/signing/pdf-revisions.ts does the same).
  const main = createRequire(import.meta.url).resolve('@cantoo/pdf-lib');
  const file = path.join(path.dirname(main), '..', 'es', 'core', 'crypto.js');
  const { CipherTransformFactory } = (await import(pathToFileURL(file).href)) as {
    CipherTransformFactory: new (dict: PDFDict, id: Uint8Array, password?: string) => CipherFactory;
  };
  let factory: CipherFactory;
  try {
    factory = new CipherTransformFactory(encrypt, id.asBytes(), '');
  } catch {
    return null; // needs a password
  }
  return (num, gen) => factory.createCipherTransform(num, gen);
}
