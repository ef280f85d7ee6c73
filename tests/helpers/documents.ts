/*
 * Test helpers for documents: multipart uploads through the real API (responses checked against openapi.yaml) and
 * driving a scan verdict the way the malware-scan plugin records it.
 */
import type { operations } from '../../core/contract/api.gen.ts';
import { loadContract } from '../../core/contract/document.ts';
import { latestVersion, recordScanVerdict, type ScanVerdict } from '../../core/files/scan.ts';
import type { TestApp } from './app.ts';
import type { CallResult } from './client.ts';
import { buildPdf } from './pdf.ts';

/** Calls a multipart operation (uploadDocument, reuploadDocument ...) and checks the response against the contract. */
export async function callMultipart<T = any>(
  app: TestApp,
  operationId: keyof operations,
  options: { token?: string; params?: Record<string, string>; form: FormData },
): Promise<CallResult<T>> {
  const { base, path, method } = loadContract().operation(operationId);
  const url = base + path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(options.params?.[name] ?? ''));
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const response = await fetch(app.url + url, { method, headers, body: options.form });
  const text = await response.text();
  const body = text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text || undefined;
  app.api.check(operationId, response.status, response.headers.get('content-type'), body);
  return { status: response.status, body, headers: response.headers };
}

export interface UploadOptions {
  bytes?: Buffer;
  fileName?: string;
  name?: string;
  documentType?: string;
  systemLinkId?: string;
  documentTemplateId?: string;
  properties?: { propertyId: string; value: string | number | null }[];
}

/** The multipart form of uploadDocument (a one-page PDF "contract.pdf" unless told otherwise). */
export async function uploadForm(options: UploadOptions = {}): Promise<FormData> {
  const form = new FormData();
  const bytes = options.bytes ?? (await buildPdf());
  form.append(
    'file',
    new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }),
    options.fileName ?? 'contract.pdf',
  );
  if (options.name !== undefined) form.append('name', options.name);
  if (options.documentType) form.append('documentType', options.documentType);
  if (options.systemLinkId) form.append('systemLinkId', options.systemLinkId);
  if (options.documentTemplateId) form.append('documentTemplateId', options.documentTemplateId);
  if (options.properties) form.append('properties', JSON.stringify(options.properties));
  return form;
}

/** Uploads a document; returns the raw result (any status). */
export async function tryUpload(app: TestApp, token: string, businessFlowId: string, options: UploadOptions = {}) {
  return callMultipart(app, 'uploadDocument', {
    token,
    params: { businessFlowId },
    form: await uploadForm(options),
  });
}

/** Uploads a PDF into a business flow (201 expected) and returns the Document resource. */
export async function uploadPdf(app: TestApp, token: string, businessFlowId: string, options: UploadOptions = {}) {
  const result = await tryUpload(app, token, businessFlowId, options);
  if (result.status !== 201) throw new Error(`uploadDocument failed: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body.data as { id: string; attributes: Record<string, any> };
}

/** Records a scan verdict on the document's latest version, as the malware-scan plugin does. */
export async function markScanned(app: TestApp, documentId: string, verdict: ScanVerdict = 'clean') {
  const { knex } = app.service.deps;
  await knex.transaction(async (trx) => {
    const version = await latestVersion(trx, documentId);
    await recordScanVerdict(app.service.deps, trx, {
      documentVersionId: version.id,
      verdict,
      engine: 'test',
      detail: verdict === 'clean' ? null : `marked ${verdict} by the test`,
    });
  });
}
