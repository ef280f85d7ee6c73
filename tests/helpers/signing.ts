/*
 * Test helpers for signing: confirming a user's address directly, reading SMS codes from the sms plugin's outbox,
 * making PKCS#12 e-certificates with openssl, calling signTask, reading the latest signed PDF and running poppler's
 * pdfsig on it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import type { TestApp } from './app.ts';

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
