import { loadContract } from '../../core/contract/document.ts';
import type { operations } from '../../core/contract/api.gen.ts';

/** A response that does not match openapi.yaml: the test that received it fails. */
export class ContractViolation extends Error {}

export interface CallOptions {
  body?: unknown;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  token?: string;
  headers?: Record<string, string>;
}

export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * Calls the API by operationId, the way integrators do, and checks every response against the contract:
 * an undeclared status, content type or a body that breaks its schema throws ContractViolation.
 */
export class TestClient {
  private readonly contract = loadContract();

  constructor(readonly baseUrl: string) {}

  async call<T = any>(operationId: keyof operations, options: CallOptions = {}): Promise<CallResult<T>> {
    const op = this.contract.operation(operationId);
    let path =
      op.base + op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(options.params?.[name] ?? ''));
    if (options.query)
      path += `?${new URLSearchParams(Object.entries(options.query).map(([k, v]): [string, string] => [k, String(v)]))}`;
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(this.baseUrl + path, {
      method: op.method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    // JSON bodies are parsed; a file (text/csv ...) stays text.
    const json = /json/.test(response.headers.get('content-type') ?? 'json');
    const body = text && json ? JSON.parse(text) : text || undefined;
    this.check(operationId, response.status, response.headers.get('content-type'), body);
    return { status: response.status, body, headers: response.headers };
  }

  /** Throws when a response breaks the contract (exported for the test that proves it does). */
  check(operationId: keyof operations, status: number, contentType: string | null, body: unknown): void {
    const problems = this.contract.validateResponse(this.contract.operation(operationId), status, contentType, body);
    if (problems.length > 0) throw new ContractViolation(problems.join('\n'));
  }
}
