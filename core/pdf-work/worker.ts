/*
 * The body of one PDF worker thread (loaded through worker.mjs, which makes TypeScript loadable): it tells the pool
 * when a task really starts, so the time budget does not count the wait in the queue or the worker's start-up, runs
 * the task, and hands back its result, its AppError or the budget it went over as plain data (a thrown error loses
 * its class on the way). The pool turns a budget into the task's own code.
 */
import type { MessagePort } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { PdfBudgetExceeded } from '../files/pdf-budget.ts';
import { AppError, type ErrorCode, type FieldError } from '../http/errors.ts';
import { BudgetExceededError } from '../signing/pdf-revisions.ts';
import { PDF_TASKS, type PdfTaskName, type PdfTasks } from './tasks.ts';

/** What the pool posts for one task. */
export interface PdfTaskMessage<K extends PdfTaskName = PdfTaskName> {
  task: K;
  input: PdfTasks[K]['input'];
  /** Receives one message when the task starts running. */
  started: MessagePort;
}

/** An AppError as data, rebuilt on the main thread. */
export interface SerializedAppError {
  code: ErrorCode;
  detail?: string;
  params: Record<string, string | number>;
  fields: FieldError[];
  headers: Record<string, string>;
}

/** How a task ended, as the worker reports it. */
export type PdfTaskOutcome<K extends PdfTaskName = PdfTaskName> =
  | { ok: true; value: PdfTasks[K]['output'] }
  | { ok: false; appError: SerializedAppError }
  /** The file went over its PdfBudget (or the verifier's read budget): what was exceeded. */
  | { ok: false; budget: string }
  | { ok: false; failure: { message: string; stack?: string } };

/** Runs one task (piscina calls the default export of the worker module). */
export default async function runPdfTask(message: PdfTaskMessage): Promise<PdfTaskOutcome> {
  message.started.postMessage('started');
  message.started.close();
  try {
    const run = PDF_TASKS[message.task] as (input: unknown) => Promise<unknown>;
    const value = (await run(message.input)) as PdfTasks[PdfTaskName]['output'];
    return movedBack({ ok: true, value });
  } catch (error) {
    if (error instanceof AppError) {
      const { code, detail, params, fields, headers } = error;
      return { ok: false, appError: { code, detail, params, fields, headers } };
    }
    if (error instanceof PdfBudgetExceeded || error instanceof BudgetExceededError) {
      return { ok: false, budget: error.message };
    }
    const failure = error instanceof Error ? error : new Error(String(error));
    return { ok: false, failure: { message: failure.message, stack: failure.stack } };
  }
}

/** The buffer a byte array owns whole (a slice of a shared or pooled buffer is copied back instead). */
function ownBuffer(value: unknown): ArrayBuffer | null {
  if (!(value instanceof Uint8Array)) return null;
  const { buffer } = value;
  return buffer instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === buffer.byteLength
    ? buffer
    : null;
}

/**
 * A result's bytes (a PDF, a placeholder's file) move back to the pool's thread rather than being copied: a signed
 * 30 MB file would otherwise cost a copy of 30 MB per task. The worker keeps no reference to them.
 */
function movedBack(outcome: PdfTaskOutcome): PdfTaskOutcome {
  if (!outcome.ok) return outcome;
  const { value } = outcome;
  const buffer =
    ownBuffer(value) ?? (value && typeof value === 'object' ? ownBuffer((value as { bytes?: unknown }).bytes) : null);
  if (!buffer) return outcome;
  return move({ [transferableSymbol]: [buffer], [valueSymbol]: outcome }) as unknown as PdfTaskOutcome;
}
