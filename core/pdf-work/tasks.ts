/*
 * The tasks the PDF worker pool runs, as the worker sees them: each takes structured-clone-able input and resolves
 * with a structured-clone-able result. Only core/pdf-work/worker.ts imports this module (it loads the parsers); the
 * main thread uses the types alone.
 */
import { inspectUpload } from '../files/inspect.ts';
import { UPLOAD_LIMITS } from '../files/upload-limits.ts';
import type { VerificationReport } from '../signing/types.ts';
import { type TrustStore, type VerifyOptions, verifyPdf } from '../signing/verify.ts';

export interface VerifyTaskInput {
  pdf: Uint8Array;
  trust: TrustStore;
  options: VerifyOptions;
  /** The bytes come straight from an upload: inspect them as the verification place allows before verifying. */
  upload: { fileName: string } | null;
}

/** Every task by name: its input and its result. */
export interface PdfTasks {
  verify: { input: VerifyTaskInput; output: VerificationReport };
}

export type PdfTaskName = keyof PdfTasks;

type TaskFunctions = { [K in PdfTaskName]: (input: PdfTasks[K]['input']) => Promise<PdfTasks[K]['output']> };

/** The implementations, run inside a worker. */
export const PDF_TASKS: TaskFunctions = {
  async verify({ pdf, trust, options, upload }) {
    if (upload) {
      await inspectUpload(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength), {
        fileName: upload.fileName,
        allowed: UPLOAD_LIMITS.verification.allowed,
        // Signed PDFs are often encrypted with an empty user password (restricting editing, not reading).
        openWithEmptyPassword: true,
      });
    }
    return verifyPdf(pdf, trust, options);
  },
};
