/*
 * Test helpers for signing: confirming a user's address directly, reading SMS codes from the sms plugin's outbox,
 * making PKCS#12 e-certificates with openssl, calling signTask, reading the latest signed PDF and running poppler's
 * pdfsig on it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { signatureContents } from '../../core/signing/byte-ranges.ts';
import { attributeValue, OID, parseSignedData, sha256 } from '../../core/signing/cms.ts';
import { signPdf } from '../../core/signing/pades.ts';
import type { PdfWorkPool } from '../../core/pdf-work/pool.ts';
import type { SignPdfInput, SignPdfResult } from '../../core/signing/types.ts';
import type { TestApp } from './app.ts';

/**
 * Signs `pdf` with the real engine of `app`: the business-operator key, the built-in TSA and the revocation source,
 * B-T by 山田 太郎 at the app's clock, unless `extra` says otherwise.
 */
export async function engineSign(
  app: TestApp,
  pdf: Uint8Array,
  extra: Partial<SignPdfInput> = {},
  /** The service's PDF worker pool, to sign as the service does; on this thread without. */
  work?: PdfWorkPool,
): Promise<SignPdfResult> {
  const engine = app.service.deps.signing;
  return signPdf(
    {
      pdf,
      key: await engine.operatorKey(),
      level: 'B-T',
      signerName: '山田 太郎',
      claimedTime: app.clock.now(),
      tsa: engine.tsa,
      revocation: engine.revocation,
      ...extra,
    },
    work,
  );
}

/** Marks the user's current address as confirmed (the arrival-confirmation link has its own test). */
export async function confirmEmailOf(app: TestApp, userId: string): Promise<void> {
  const { knex } = app.service.deps;
  const user = await knex('users').where({ id: userId }).first('email');
  await knex('users')
    .where({ id: userId })
    .update({ email_confirmed_address: user.email, email_confirmed_at: new Date() });
}

/** Waits for the newest SMS to `phone` in the outbox and returns its 6-digit code. */
export async function waitForSmsCode(
  app: TestApp,
  phone: string,
  after = new Date(0),
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await app.service.deps
      .knex('sms_outbox')
      .where({ phone_number: phone })
      .where('created_at', '>', after)
      .orderBy('created_at', 'desc')
      .first('body');
    const code = row && /(\d{6})/.exec(row.body as string)?.[1];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no SMS to ${phone} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const work = mkdtempSync(path.join(tmpdir(), 'keiyaku-signing-'));
let files = 0;
export function tempFile(name: string, bytes?: Uint8Array | string): string {
  const file = path.join(work, `${files++}-${name}`);
  if (bytes !== undefined) writeFileSync(file, bytes);
  return file;
}

/** A self-signed e-certificate as PKCS#12: RSA-2048 (or EC P-256), the given subject, valid `days`. */
export function makePkcs12(options: {
  commonName: string;
  email?: string;
  pin: string;
  days?: number;
  ec?: boolean;
}): Buffer {
  const key = tempFile('key.pem');
  const cert = tempFile('cert.pem');
  const p12 = tempFile('cert.p12');
  const subject = `/CN=${options.commonName}${options.email ? `/emailAddress=${options.email}` : ''}`;
  const keyArgs = options.ec ? ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'] : ['-newkey', 'rsa:2048'];
  execFileSync('openssl', [
    'req',
    '-x509',
    ...keyArgs,
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-subj',
    subject,
    '-utf8',
    '-days',
    String(options.days ?? 365),
  ]);
  execFileSync('openssl', [
    'pkcs12',
    '-export',
    '-inkey',
    key,
    '-in',
    cert,
    '-out',
    p12,
    '-passout',
    `pass:${options.pin}`,
  ]);
  return readFileSync(p12);
}

export function signTaskCall(app: TestApp, token: string, taskId: string, attributes: Record<string, unknown> = {}) {
  return app.api.call('signTask', {
    token,
    params: { taskId },
    body: { data: { type: 'TaskSignature', attributes } },
  });
}

/** The bytes of the document's latest version (read from the file store). */
export async function latestPdf(app: TestApp, documentId: string): Promise<Buffer> {
  const { knex, files } = app.service.deps;
  const version = await knex('document_versions').where({ document_id: documentId }).orderBy('version', 'desc').first();
  return files.read(version.sha256);
}

/** pdfsig's verdict per signature, in file order, and the SubFilters it saw. */
export function pdfsig(pdf: Uint8Array): { validations: string[]; types: string[]; output: string } {
  const result = spawnSync('pdfsig', [tempFile('doc.pdf', pdf)], { encoding: 'utf8' });
  const output = `${result.stdout}${result.stderr}`;
  return {
    validations: [...output.matchAll(/Signature Validation: (.+)/g)].map((m) => m[1]!.trim()),
    types: [...output.matchAll(/Signature Type: (.+)/g)].map((m) => m[1]!.trim()),
    output,
  };
}

/**
 * The signature dictionaries of the PDF as qpdf reads them (`qpdf --json=2`: object streams resolved, text strings
 * decoded), each with its /Name and /Reason: an independent look at whom a signature names.
 */
export function signatureDictionaries(pdf: Uint8Array): { name: string | null; reason: string | null }[] {
  const json = execFileSync('qpdf', ['--json=2', '--json-key=qpdf', tempFile('dictionaries.pdf', pdf)], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const objects = (JSON.parse(json) as { qpdf: [unknown, Record<string, { value?: Record<string, unknown> }>] })
    .qpdf[1];
  const text = (value: unknown) => (typeof value === 'string' ? value.replace(/^u:/, '') : null);
  return Object.values(objects)
    .map((object) => object.value)
    .filter((value): value is Record<string, unknown> => value?.['/Type'] === '/Sig')
    .map((value) => ({ name: text(value['/Name']), reason: text(value['/Reason']) }));
}

/** pdfsig with an NSS database (certutil, libnss3-tools) that trusts the CA certificates in `caPem` for signing. */
export function pdfsigTrusting(pdf: Uint8Array, caPem: string): { validations: string[]; certificates: string[] } {
  const db = tempFile('nssdb');
  mkdirSync(db);
  execFileSync('certutil', ['-N', '-d', `sql:${db}`, '--empty-password']);
  execFileSync('certutil', ['-A', '-d', `sql:${db}`, '-n', 'ca', '-t', 'CT,C,C', '-i', tempFile('ca.pem', caPem)]);
  const result = spawnSync('pdfsig', ['-nssdir', `sql:${db}`, tempFile('doc.pdf', pdf)], { encoding: 'utf8' });
  const output = `${result.stdout}${result.stderr}`;
  return {
    validations: [...output.matchAll(/Signature Validation: (.+)/g)].map((m) => m[1]!.trim()),
    certificates: [...output.matchAll(/Certificate Validation: (.+)/g)].map((m) => m[1]!.trim()),
  };
}

export function qpdfCheck(pdf: Uint8Array): string {
  return execFileSync('qpdf', ['--check', tempFile('check.pdf', pdf)], { encoding: 'utf8' });
}

/** A `size` × `size` red PNG with a transparent border: a seal image. */
export function sealPng(size = 40): Buffer {
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const inside = x > 2 && y > 2 && x < size - 3 && y < size - 3;
      png.data.set(inside ? [220, 30, 30, 255] : [0, 0, 0, 0], i);
    }
  }
  return PNG.sync.write(png);
}

function run(command: string, args: string[]): { ok: boolean; output: string } {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

/** The bytes a ByteRange covers. */
export function signedBytes(pdf: Uint8Array, [a, b, c, d]: readonly number[]): Buffer {
  return Buffer.concat([pdf.subarray(a!, a! + b!), pdf.subarray(c!, c! + d!)]);
}

/** `openssl cms -verify` of signature `index` over its ByteRange, chained to the roots in `caFile` (PEM). */
export function opensslCms(pdf: Uint8Array, index: number, caFile: string): { ok: boolean; output: string } {
  const { byteRange, der } = signatureContents(pdf)[index]!;
  return run('openssl', [
    'cms',
    '-verify',
    '-binary',
    '-inform',
    'DER',
    '-in',
    tempFile('sig.der', der),
    '-content',
    tempFile('content.bin', signedBytes(pdf, byteRange)),
    '-CAfile',
    caFile,
    '-purpose',
    'any',
    '-out',
    '/dev/null',
  ]);
}

/** `openssl ts -verify` of a token, against a digest (a signature timestamp) or data (a document timestamp). */
export function opensslTs(
  token: Uint8Array,
  imprintOrData: { digest: string } | { data: Uint8Array },
  caFile: string,
): { ok: boolean; output: string } {
  const input =
    'digest' in imprintOrData ? ['-digest', imprintOrData.digest] : ['-data', tempFile('data.bin', imprintOrData.data)];
  return run('openssl', [
    'ts',
    '-verify',
    '-token_in',
    '-in',
    tempFile('token.der', token),
    ...input,
    '-CAfile',
    caFile,
  ]);
}

/**
 * Every signature of `pdf` checked by tools that are not ours: a document timestamp with `openssl ts -verify` over
 * its ByteRange; a signature with `openssl cms -verify` over its ByteRange (self-signed signer certificates are
 * added to the roots, so the chain check does not hide the signature check) and its signature timestamp with
 * `openssl ts -verify` over the signature value's digest; the file with `qpdf --check`. Returns the failures.
 */
export function independentChecks(pdf: Uint8Array, localCaPem: string): string[] {
  const failures: string[] = [];
  qpdfCheck(pdf);
  signatureContents(pdf).forEach(({ byteRange, der }, index) => {
    const { signedData } = parseSignedData(der);
    const roots = [localCaPem];
    for (const certificate of signedData.certificates ?? []) {
      const x509 = new X509Certificate(
        Buffer.from((certificate as { toSchema(): { toBER(): ArrayBuffer } }).toSchema().toBER()),
      );
      if (x509.subject === x509.issuer) roots.push(x509.toString());
    }
    const caFile = tempFile('roots.pem', roots.join('\n'));
    if (signedData.encapContentInfo.eContentType === OID.tstInfo) {
      const checked = opensslTs(der, { data: signedBytes(pdf, byteRange) }, caFile);
      if (!checked.ok) failures.push(`document timestamp ${index}: ${checked.output}`);
      return;
    }
    const cms = opensslCms(pdf, index, caFile);
    if (!cms.ok) failures.push(`signature ${index}: ${cms.output}`);
    const signerInfo = signedData.signerInfos[0]!;
    const token = attributeValue(signerInfo, OID.signatureTimeStampToken, true);
    if (token) {
      const digest = Buffer.from(sha256(new Uint8Array(signerInfo.signature.valueBlock.valueHexView))).toString('hex');
      const ts = opensslTs(new Uint8Array(token.toBER(false)), { digest }, caFile);
      if (!ts.ok) failures.push(`signature timestamp ${index}: ${ts.output}`);
    }
  });
  return failures;
}
