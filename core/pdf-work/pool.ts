/*
 * The worker pool for PDFs we did not make (DESIGN.md: every parse of such a PDF runs off the event loop with a
 * budget). One pool per service (CoreDeps.pdfWork) runs upload inspection, the built-in malware scan, page geometry,
 * the PDF side of signing and verification. Each task gets a budget of input bytes, wall time and heap, and inside
 * the worker the parsers charge inflated bytes, objects and nesting to the file's PdfBudget (core/files/
 * pdf-budget.ts); a task over its time is stopped by terminating its worker (a synchronous parse cannot be
 * interrupted any other way), and the pool starts a new one for the next task. Whatever budget a task goes over, it
 * fails with its own code (TASK_LIMITS), and a full queue with its busy code and a Retry-After. Workers start on
 * first use; all but one exit when idle. Built on piscina; tasks are in tasks.ts, and each worker loads them
 * through worker.mjs.
 */
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { AppError, type ErrorCode } from '../http/errors.ts';
import { UPLOAD_LIMITS } from '../files/upload-limits.ts';
import type { PdfTaskName, PdfTasks } from './tasks.ts';
import type { PdfTaskMessage, PdfTaskOutcome } from './worker.ts';

/** How many workers run PDF tasks at once, and each task's budget (Config['pdfWork'] plus the queue). */
export interface PdfWorkSettings {
  workers: number;
  /** Wall time of one task from the moment a worker starts it (not counting the queue). */
  timeoutMs: number;
  /** The V8 old-generation heap of each worker. */
  memoryMb: number;
  /**
   * Tasks that may wait for a worker; one more is refused as busy. Default: 4 per worker and at least 16, so that ten
   * people signing at once (one task each) and a few uploads fit on the one worker a 2-core machine runs.
   */
  queue?: number;
  /** A worker idle this long exits. Default: 60 s. */
  idleMs?: number;
}

interface TaskLimits<K extends PdfTaskName> {
  /** The bytes a task reads (what its input-size budget measures). */
  inputBytes(input: PdfTasks[K]['input']): number;
  maxInputBytes: number;
  /** The error a task over its budget (time, memory, input, a worker that died) or a full queue fails with. */
  budgetExceeded: ErrorCode;
  busy: ErrorCode;
}

/**
 * The largest PDF the service handles: the verification place's limit covers the service's own signed output of
 * the largest document, so a stored document (signed revisions included) stays under it too.
 */
const LARGEST_PDF = UPLOAD_LIMITS.verification.maxBytes;
const LARGEST_UPLOAD = Math.max(...Object.values(UPLOAD_LIMITS).map((limit) => limit.maxBytes));

/** A task on a stored or uploaded document, failing with the codes of PDF work in general. */
function documentTask<K extends PdfTaskName>(inputBytes: (input: PdfTasks[K]['input']) => number): TaskLimits<K> {
  return { inputBytes, maxInputBytes: LARGEST_PDF, budgetExceeded: 'PDF_TOO_COMPLEX', busy: 'PDF_WORK_BUSY' };
}

const TASK_LIMITS: { [K in PdfTaskName]: TaskLimits<K> } = {
  verify: {
    inputBytes: (input) => input.pdf.byteLength,
    maxInputBytes: LARGEST_PDF,
    budgetExceeded: 'VERIFICATION_BUDGET_EXCEEDED',
    busy: 'VERIFICATION_BUSY',
  },
  inspect: { ...documentTask((input) => input.bytes.byteLength), maxInputBytes: LARGEST_UPLOAD },
  scan: documentTask((input) => input.bytes.byteLength),
  pageSizes: documentTask((input) => input.pdf.byteLength),
  prepareSignature: documentTask((input) => input.pdf.byteLength),
  prepareDocumentTimestamp: documentTask((input) => input.pdf.byteLength),
  signedItems: documentTask((input) => input.pdf.byteLength),
  writeValidationData: documentTask((input) => input.pdf.byteLength),
  renderCertificate: documentTask((input) => JSON.stringify(input.content).length),
};

const WORKER = new URL('./worker.mjs', import.meta.url).href;

/**
 * The bytes of `view` as a buffer that may be transferred to a worker: its own buffer when the view covers all of
 * it, otherwise a copy (transferring a shared or pooled buffer would empty other views of it).
 */
export function transferable(view: Uint8Array): Uint8Array<ArrayBuffer> {
  const { buffer } = view;
  if (buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === buffer.byteLength) {
    return view as Uint8Array<ArrayBuffer>;
  }
  return new Uint8Array(view);
}

/** A pool of worker threads for untrusted PDF work; see the file comment. */
export class PdfWorkPool {
  readonly #settings: Required<PdfWorkSettings>;
  #piscina: Piscina<PdfTaskMessage, PdfTaskOutcome> | null = null;
  /** Tasks accepted and not yet settled: running plus queued. */
  #pending = 0;
  #closed = false;
  /** Told of every PAdES signature made with this pool (the service's metrics), with its wall time. */
  onSigned: ((level: string, seconds: number) => void) | null = null;

  constructor(settings: PdfWorkSettings) {
    this.#settings = { queue: Math.max(settings.workers * 4, 16), idleMs: 60_000, ...settings };
  }

  /** How many tasks are running or waiting. */
  get pending(): number {
    return this.#pending;
  }

  /**
   * Runs `task` in a worker within its budget. The buffers in `transfer` move to the worker (they are empty here
   * afterwards). Fails with the task's busy code when the queue is full, and with its budget code when the input is
   * too large, the task runs out of time or memory, or its worker dies; an AppError the task throws comes back as is.
   */
  async run<K extends PdfTaskName>(
    task: K,
    input: PdfTasks[K]['input'],
    options: { transfer?: ArrayBuffer[] } = {},
  ): Promise<PdfTasks[K]['output']> {
    if (this.#closed) throw new Error('the PDF worker pool is closed');
    const limits = TASK_LIMITS[task] as TaskLimits<PdfTaskName>;
    const bytes = limits.inputBytes(input);
    if (bytes > limits.maxInputBytes) {
      throw new AppError(limits.budgetExceeded, {
        detail: `input of ${bytes} bytes is over the ${limits.maxInputBytes}-byte budget`,
      });
    }
    const { workers, queue, timeoutMs, memoryMb } = this.#settings;
    if (this.#pending >= workers + queue) {
      // By then each running task has ended, one way or the other.
      throw new AppError(limits.busy, {
        detail: `${this.#pending} PDF tasks running or waiting`,
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(timeoutMs / 1000))) },
      });
    }
    this.#pending += 1;
    const { port1: startedHere, port2: startedThere } = new MessageChannel();
    const timeout = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    startedHere.once('message', () => {
      timer = setTimeout(() => timeout.abort(), timeoutMs);
    });
    try {
      const message: PdfTaskMessage = { task, input, started: startedThere };
      let outcome: PdfTaskOutcome;
      try {
        outcome = await this.#pool().run(message, {
          transferList: [startedThere, ...(options.transfer ?? [])],
          signal: timeout.signal,
        });
      } catch (error) {
        if (timeout.signal.aborted) {
          throw new AppError(limits.budgetExceeded, { detail: `${task} ran longer than ${timeoutMs} ms` });
        }
        const code = (error as { code?: string }).code;
        throw new AppError(limits.budgetExceeded, {
          detail:
            code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? `${task} ran out of its ${memoryMb} MB heap`
              : `the worker running ${task} stopped: ${(error as Error).message}`,
          cause: error,
        });
      }
      if (outcome.ok) return outcome.value as PdfTasks[K]['output'];
      if ('budget' in outcome) throw new AppError(limits.budgetExceeded, { detail: `${task}: ${outcome.budget}` });
      if ('appError' in outcome) {
        const { code, detail, params, fields, headers } = outcome.appError;
        const error = new AppError(code, { detail, params, headers });
        error.fields.push(...fields);
        throw error;
      }
      const failure = new Error(`PDF task ${task} failed in its worker: ${outcome.failure.message}`);
      failure.stack = outcome.failure.stack ?? failure.stack;
      throw failure;
    } finally {
      clearTimeout(timer);
      startedHere.close();
      this.#pending -= 1;
    }
  }

  /** Stops every worker; tasks still running fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const piscina = this.#piscina;
    this.#piscina = null;
    await piscina?.destroy();
  }

  #pool(): Piscina<PdfTaskMessage, PdfTaskOutcome> {
    this.#piscina ??= new Piscina<PdfTaskMessage, PdfTaskOutcome>({
      filename: WORKER,
      // Once used, one worker stays: starting one (loading the parsers) takes seconds, and a worker stopped over its
      // budget is replaced at once, ready for the next task. Workers beyond it exit when idle.
      minThreads: 1,
      maxThreads: this.#settings.workers,
      idleTimeout: this.#settings.idleMs,
      resourceLimits: { maxOldGenerationSizeMb: this.#settings.memoryMb },
      // Results come back by message; the atomics wake-up only makes idle workers spin.
      atomics: 'disabled',
    });
    return this.#piscina;
  }
}
