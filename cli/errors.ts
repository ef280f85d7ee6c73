/** Exit codes of `keiyaku`, distinct so scripts can tell the failures apart. */
export const EXIT = {
  /** The API answered with an error (its code and message are printed). */
  apiError: 1,
  /** The command line was wrong (unknown option, bad date, missing argument). */
  usage: 2,
  /** No stored credentials and none in the environment, or the session ended for good. */
  notSignedIn: 3,
  /** `keiyaku log verify` found a row whose hash or link does not match. */
  verificationFailed: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the CLI reports as one message and an exit code (never a stack trace). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.apiError,
    /** The API's error code, when the failure came from the API. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A wrong command line (exit 2). */
export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}

/** One entry of a JSON:API error body. */
export interface ErrorEntry {
  code?: string;
  title?: string;
  detail?: string;
  source?: { pointer?: string };
}

/** Turns an API error body into one CliError: "CODE: message", then one line per field error. */
export function apiError(status: number, body: unknown): CliError {
  const errors = ((body as { errors?: ErrorEntry[] } | null)?.errors ?? []).filter(Boolean);
  const first = errors[0];
  const code = first?.code ?? `HTTP_${status}`;
  const lines = errors.length
    ? errors.map((e) => `${e.code}: ${e.title ?? e.detail ?? ''}${e.source?.pointer ? ` (${e.source.pointer})` : ''}`)
    : [`${code}: the server answered ${status}`];
  return new CliError(lines.join('\n'), status === 401 ? EXIT.notSignedIn : EXIT.apiError, code);
}

/** openapi-fetch's result to its data, or the API error as a CliError. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw apiError(result.response.status, result.error);
  return result.data as T;
}
