import { existsSync, readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

type Json = Record<string, unknown>;

/** One operation of the contract, found by its operationId. */
export interface ContractOperation {
  operationId: string;
  method: string;
  /** OpenAPI path, e.g. /auth or /users/{userId}. */
  path: string;
  /** Server base the path hangs from (/core/v1, or / for health). */
  base: string;
  /** Whether the operation declares security (security: [] means public). */
  authenticated: boolean;
  /**
   * Whether its security is the `guest` scheme: a one-time user's token, accepted only by these operations (and the
   * `bearer` scheme's operations refuse it), see core/auth/guest-sessions.ts.
   */
  guest: boolean;
  parameters: { name: string; in: string; required: boolean; schema: Json }[];
  hasBody: boolean;
  /** Media types the request body may have (`application/json`, `text/csv` ...). */
  requestMediaTypes: string[];
  responses: Record<string, unknown>;
  /** The operation's tags; the first decides the area an API key needs a scope of (core/modules/api-keys). */
  tags: string[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const DOCUMENT_ID = 'https://keiyaku.local/openapi.json';

/** Escapes one segment of a JSON pointer. */
function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The parsed openapi.yaml with ajv validators compiled on demand and cached. */
export class Contract {
  readonly document: Json;
  readonly operations = new Map<string, ContractOperation>();
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(file: URL | string) {
    const text = readFileSync(file, 'utf8');
    this.document = (String(file).endsWith('.json') ? JSON.parse(text) : parse(text)) as Json;
    this.ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
    addFormats.default(this.ajv);
    for (const keyword of ['components', 'example', 'discriminator', 'xml', 'externalDocs']) {
      this.ajv.addKeyword({ keyword });
    }
    this.ajv.addSchema({ ...this.document, $id: DOCUMENT_ID } as Json);
    this.indexOperations();
  }

  private indexOperations(): void {
    const rootBase = new URL(((this.document.servers as Json[])?.[0]?.url as string) ?? '/', 'http://x').pathname;
    const rootSecurity = (this.document.security as unknown[]) ?? [];
    for (const [path, item] of Object.entries(this.document.paths as Record<string, Json>)) {
      const servers = item.servers as Json[] | undefined;
      const base = servers ? new URL(servers[0]!.url as string, 'http://x').pathname : rootBase;
      const shared = (item.parameters as Json[]) ?? [];
      for (const method of HTTP_METHODS) {
        const op = item[method] as Json | undefined;
        if (!op) continue;
        const id = op.operationId as string;
        if (this.operations.has(id)) throw new Error(`openapi.yaml: duplicate operationId ${id}`);
        const security = (op.security as unknown[]) ?? rootSecurity;
        this.operations.set(id, {
          operationId: id,
          method: method.toUpperCase(),
          path,
          base: base.replace(/\/$/, ''),
          authenticated: security.length > 0,
          guest: security.some((requirement) => Object.keys(requirement as Json).includes('guest')),
          parameters: [...shared, ...((op.parameters as Json[]) ?? [])].map((p) => this.resolve(p)) as never,
          hasBody: Boolean(op.requestBody),
          requestMediaTypes: Object.keys((op.requestBody as Json | undefined)?.content ?? {}),
          responses: op.responses as Record<string, unknown>,
          tags: (op.tags as string[] | undefined) ?? [],
        });
      }
    }
  }

  /** Follows a local $ref one level (parameters are referenced from components). */
  private resolve(node: Json): Json {
    const ref = node.$ref as string | undefined;
    if (!ref) return node;
    return ref
      .slice(2)
      .split('/')
      .reduce<Json>((at, key) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')] as Json, this.document);
  }

  /** A schema with every local $ref replaced by its target, for validators compiled outside the document. */
  private inline(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((item) => this.inline(item));
    if (!node || typeof node !== 'object') return node;
    const resolved = this.resolve(node as Json);
    return Object.fromEntries(Object.entries(resolved).map(([key, value]) => [key, this.inline(value)]));
  }

  operation(operationId: string): ContractOperation {
    const op = this.operations.get(operationId);
    if (!op) throw new Error(`openapi.yaml has no operation ${operationId}`);
    return op;
  }

  private validatorAt(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  private operationPointer(op: ContractOperation): string {
    return `/paths/${escapePointer(op.path)}/${op.method.toLowerCase()}`;
  }

  /** Validates a request body (JSON unless another media type is named); returns ajv's errors or null. */
  validateBody(op: ContractOperation, body: unknown, mediaType = 'application/json'): ErrorObject[] | null {
    const media = escapePointer(mediaType);
    const validate = this.validatorAt(`${this.operationPointer(op)}/requestBody/content/${media}/schema`);
    return validate(body) ? null : (validate.errors ?? []);
  }

  /**
   * Validates one response against the contract: the status must be declared and the body must match its schema.
   * Returns a list of problems (empty when the response conforms).
   */
  validateResponse(op: ContractOperation, status: number, contentType: string | null, body: unknown): string[] {
    const declared = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
    if (!declared) return [`${op.operationId}: status ${status} is not declared in openapi.yaml`];
    const response = this.resolve(declared as Json);
    const content = response.content as Record<string, Json> | undefined;
    if (!content) {
      return body === undefined || body === '' || body === null
        ? []
        : [`${op.operationId} ${status}: body not declared`];
    }
    const mediaType = (contentType ?? '').split(';')[0]!.trim();
    if (!content[mediaType]) return [`${op.operationId} ${status}: content type ${mediaType || 'none'} not declared`];
    if (!content[mediaType]!.schema) return [];
    // A file body (a stream or bytes of text/csv, application/pdf ...) is checked for its declared type only.
    if (!mediaType.includes('json') && body !== null && typeof body === 'object') return [];
    const key = Object.keys(op.responses).find((k) => op.responses[k] === declared)!;
    const base = `${this.operationPointer(op)}/responses/${key}`;
    const pointer = (declared as Json).$ref
      ? `${((declared as Json).$ref as string).slice(1)}/content/${escapePointer(mediaType)}/schema`
      : `${base}/content/${escapePointer(mediaType)}/schema`;
    const validate = this.validatorAt(pointer);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${op.operationId} ${status}: ${e.instancePath || '/'} ${e.message}`);
  }

  /** Builds (and caches) a validator for an operation's path and query parameters, coercing strings. */
  parameterValidator(op: ContractOperation, location: 'path' | 'query'): ValidateFunction {
    const key = `${op.operationId}:${location}`;
    let validate = this.validators.get(key);
    if (!validate) {
      const params = op.parameters.filter((p) => p.in === location);
      const coercing = new Ajv2020({ allErrors: true, strict: false, coerceTypes: 'array' });
      addFormats.default(coercing);
      validate = coercing.compile({
        type: 'object',
        properties: Object.fromEntries(params.map((p) => [p.name, this.inline(p.schema)])),
        required: params.filter((p) => p.required).map((p) => p.name),
      });
      this.validators.set(key, validate);
    }
    return validate;
  }
}

/** Turns ajv's errors into JSON pointers into the validated value, one per problem. */
export function pointersOf(errors: ErrorObject[], prefix = ''): { pointer: string; message: string }[] {
  return errors.map((error) => {
    let pointer = error.instancePath;
    if (error.keyword === 'required') pointer += `/${escapePointer(String(error.params.missingProperty))}`;
    if (error.keyword === 'additionalProperties')
      pointer += `/${escapePointer(String(error.params.additionalProperty))}`;
    return { pointer: `${prefix}${pointer}` || '/', message: error.message ?? 'is invalid' };
  });
}

export const contractFile = new URL('../../openapi.yaml', import.meta.url);

/**
 * The compiled build's copy of the contract as JSON (scripts/build-server.ts writes it next to the YAML): parsing the
 * YAML took 0.7–1.0 s of every production start, JSON 10 ms. Under tsx (dev, tests) there is none.
 */
const parsedContractFile = new URL('../../openapi.json', import.meta.url);

let shared: Contract | null = null;

/** The contract of this checkout, parsed once per process. */
export function loadContract(): Contract {
  shared ??= new Contract(existsSync(parsedContractFile) ? parsedContractFile : contractFile);
  return shared;
}
