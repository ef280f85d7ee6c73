/*
 * The tasks the PDF worker pool runs, as the worker sees them: each takes structured-clone-able input and resolves
 * with a structured-clone-able result. Only core/pdf-work/worker.ts imports this module (it loads the parsers); the
 * main thread uses the types alone. Every task that hands bytes we did not make to pdf-lib checks them within their
 * PdfBudget first (core/files/pdf-budget.ts), in the same worker.
 */
import { PDFDocument } from '@cantoo/pdf-lib';
import { builtinThreat } from '../files/builtin-threats.ts';
import { type InspectedUpload, inspectUpload, type UploadKind } from '../files/inspect.ts';
import { checkPdfBudget } from '../files/pdf-scan.ts';
import { UPLOAD_LIMITS } from '../files/upload-limits.ts';
import { type SignedItem, signedItems, writeValidationData } from '../signing/dss.ts';
import {
  type Placeholder,
  prepareDocumentTimestamp,
  prepareSignature,
  type SignatureFieldRequest,
} from '../signing/pades.ts';
import type { ValidationData, VerificationReport } from '../signing/types.ts';
import { type CertificateContent, renderCertificatePdf } from './certificate-pdf.ts';
import { type TrustStore, type VerifyOptions, verifyPdf } from '../signing/verify.ts';

export interface VerifyTaskInput {
  pdf: Uint8Array;
  trust: TrustStore;
  options: VerifyOptions;
  /** The bytes come straight from an upload: inspect them as the verification place allows before verifying. */
  upload: { fileName: string } | null;
}

/** An upload to inspect by content (core/files/inspect.ts). */
export interface InspectTaskInput {
  bytes: Uint8Array;
  fileName: string;
  allowed: readonly UploadKind[];
}

type PdfInput = { pdf: Uint8Array };
type PageSize = { width: number; height: number };

/** Every task by name: its input and its result. */
export interface PdfTasks {
  verify: { input: VerifyTaskInput; output: VerificationReport };
  /** Upload inspection: the kind by content, and for PDFs the scan and the parser's look (pages, encryption). */
  inspect: { input: InspectTaskInput; output: InspectedUpload };
  /** The built-in malware-scan engine's content signatures: what was found, or null. */
  scan: { input: { bytes: Uint8Array }; output: string | null };
  /** Each page's size (MediaBox, in points), for placing visible signature elements. */
  pageSizes: { input: PdfInput; output: PageSize[] };
  /** A signature's revision with its placeholder (core/signing/pades.ts); the CMS is made on the main thread. */
  prepareSignature: { input: SignatureFieldRequest; output: Placeholder };
  prepareDocumentTimestamp: { input: PdfInput; output: Placeholder };
  /** The signatures' chains a DSS needs (core/signing/dss.ts). */
  signedItems: { input: PdfInput; output: SignedItem[] };
  writeValidationData: {
    input: PdfInput & { items: SignedItem[]; data: ValidationData };
    output: Uint8Array;
  };
  /** A completion certificate laid out with the embedded Japanese font (core/pdf-work/certificate-pdf.ts). */
  renderCertificate: { input: { content: CertificateContent; createdAt: Date }; output: Uint8Array };
}

export type PdfTaskName = keyof PdfTasks;

type TaskFunctions = { [K in PdfTaskName]: (input: PdfTasks[K]['input']) => Promise<PdfTasks[K]['output']> };

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The implementations, run inside a worker. */
export const PDF_TASKS: TaskFunctions = {
  async verify({ pdf, trust, options, upload }) {
    if (upload) {
      await inspectUpload(asBuffer(pdf), {
        fileName: upload.fileName,
        allowed: UPLOAD_LIMITS.verification.allowed,
        // Signed PDFs are often encrypted with an empty user password (restricting editing, not reading).
        openWithEmptyPassword: true,
      });
    }
    return verifyPdf(pdf, trust, options);
  },
  async inspect({ bytes, fileName, allowed }) {
    return inspectUpload(asBuffer(bytes), { fileName, allowed });
  },
  async scan({ bytes }) {
    return builtinThreat(asBuffer(bytes));
  },
  async pageSizes({ pdf }) {
    checkPdfBudget(pdf);
    const doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
    return doc.getPages().map((page) => page.getSize());
  },
  prepareSignature: (request) => prepareSignature(request),
  prepareDocumentTimestamp: ({ pdf }) => prepareDocumentTimestamp(pdf),
  async signedItems({ pdf }) {
    return signedItems(pdf);
  },
  writeValidationData: ({ pdf, items, data }) => writeValidationData(pdf, items, data),
  renderCertificate: ({ content, createdAt }) => renderCertificatePdf(content, createdAt),
};
