import { scanPdf } from './pdf-scan.ts';
import { containsEicar, detectExecutable } from './signatures.ts';

const PDF_HEADER = Buffer.from('%PDF-', 'latin1');

/**
 * The content signatures of the built-in malware-scan engine, the same ones upload inspection refuses: the EICAR
 * test string, executable headers, and PDF active content (JavaScript, launch actions, embedded executables).
 * Returns what was found, or null. It knows no virus database: real malware needs the clamd engine. A PDF is
 * scanned within its budget (pdf-budget.ts: PdfBudgetExceeded over it), in the PDF worker pool (task `scan`).
 */
export function builtinThreat(bytes: Buffer): string | null {
  if (containsEicar(bytes)) return 'Eicar-Test-Signature';
  const executable = detectExecutable(bytes);
  if (executable) return executable;
  if (bytes.subarray(0, 1024).indexOf(PDF_HEADER) >= 0) {
    const active = scanPdf(bytes).activeContent;
    if (active) return `PDF active content: ${active}`;
  }
  return null;
}
