import type { Knex } from 'knex';
import type { components } from '../../contract/api.gen.ts';
import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError, type ErrorCode, errorMessage } from '../../http/errors.ts';
import { lockImports } from './import-lock.ts';
import type { TableRow } from './table.ts';

type BatchImportResult = components['schemas']['BatchImportResult'];
type RowResult = components['schemas']['BatchRowResult'];
type RowError = components['schemas']['BatchRowError'];
export type Outcome = 'added' | 'updated' | 'deleted' | 'unchanged';
export type Operation = 'add' | 'update' | 'delete';

/** A row problem the import finds itself, pointing at a CSV column (reported like the services' field errors). */
export function rowError(code: ErrorCode, column: string | null, params: Record<string, string | number> = {}) {
  return new AppError(code, { pointer: column ? `/data/attributes/${column}` : undefined, params });
}

/** What one import needs from its target (users or groups). */
export interface ImportTarget<Context> {
  name: 'users' | 'groups';
  /** The column that names a row's item; a value on two rows fails every row after the first. */
  keyColumn: string;
  /** Loads what the rows are checked against (group and role names, ...) inside the import's transaction. */
  prepare(trx: Knex.Transaction): Promise<Context>;
  /** Applies one row inside its own savepoint; throws an AppError to fail it (and roll it back). */
  apply(trx: Knex.Transaction, row: TableRow, operation: Operation, context: Context): Promise<Outcome>;
  /** Maps a service field pointer's attribute (`groupIds`) to the CSV column (`groups`). */
  columnOf?(attribute: string): string;
}

const OPERATIONS: readonly string[] = ['add', 'update', 'delete'];

function errorsOf(error: AppError, columnOf: (attribute: string) => string): RowError[] {
  const entry = (code: ErrorCode, params: Record<string, string | number>, pointer?: string): RowError => {
    const attribute = pointer?.match(/^\/data\/attributes\/([^/]+)/)?.[1];
    const column = attribute ? columnOf(attribute) : null;
    const withColumn = { column: column ?? '', ...params };
    return {
      code,
      column,
      messages: { ja: errorMessage(code, 'ja', withColumn), en: errorMessage(code, 'en', withColumn) },
    };
  };
  if (error.fields.length === 0) return [entry(error.code, error.params)];
  return error.fields.map((field) => entry(field.code, field.params ?? {}, field.pointer));
}

/**
 * Runs an import: one transaction, each row in its own savepoint so a failed row leaves nothing behind while the good
 * rows stay. A dry run rolls the whole transaction back (no rows, no mail jobs, no log). An applied import logs its
 * rows' entries after its last row (a DeferredOperationLog: it takes the organization's log lock last, as every
 * writer does) and ends with one `batch.<target>_imported` entry. Imports of one organization run one at a time
 * (lockImports).
 */
export async function runImport<Context>(
  deps: CoreDeps,
  req: RequestContext,
  principal: Principal,
  targetOf: (deps: CoreDeps) => ImportTarget<Context>,
  rows: TableRow[],
  dryRun: boolean,
): Promise<BatchImportResult> {
  const firstLine = new Map<string, number>();
  const counts = { total: rows.length, added: 0, updated: 0, deleted: 0, unchanged: 0, failed: 0 };
  const results: RowResult[] = [];
  const log = deps.oplog.deferred();
  const target = targetOf({ ...deps, oplog: log });
  const columnOf = target.columnOf ?? ((attribute: string) => attribute);
  const trx = await deps.knex.transaction();
  try {
    await lockImports(trx, principal.organizationId, 'import');
    const context = await target.prepare(trx);
    for (const row of rows) {
      const operationCell = row.cells.operation ?? '';
      const key = row.cells[target.keyColumn] ?? '';
      const result: RowResult = { line: row.line, operation: operationCell, key, outcome: 'failed', errors: [] };
      const mark = log.size;
      try {
        const operation = operationCell.toLowerCase();
        if (row.fieldCount) throw rowError('BATCH_ROW_FIELD_COUNT', null, row.fieldCount);
        if (!OPERATIONS.includes(operation)) throw rowError('BATCH_OPERATION_INVALID', 'operation');
        const seen = firstLine.get(key);
        if (key !== '' && seen !== undefined) {
          throw rowError('BATCH_DUPLICATE_IN_FILE', target.keyColumn, { line: seen });
        }
        if (key !== '') firstLine.set(key, row.line);
        result.outcome = await trx.transaction((savepoint) =>
          target.apply(savepoint, row, operation as Operation, context),
        );
        counts[result.outcome] += 1;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        log.discard(mark);
        result.errors = errorsOf(error, columnOf);
        counts.failed += 1;
      }
      results.push(result);
    }
    if (dryRun) {
      await trx.rollback();
    } else {
      await log.flush(trx);
      await deps.oplog.append(trx, req, {
        action: `batch.${target.name}_imported`,
        organizationId: principal.organizationId,
        actorUserId: principal.userId,
        targetType: 'organization',
        targetId: principal.organizationId,
        details: { counts, failedLines: results.filter((r) => r.outcome === 'failed').map((r) => r.line) },
      });
      await trx.commit();
    }
  } catch (error) {
    if (!trx.isCompleted()) await trx.rollback().catch(() => undefined);
    throw error;
  }
  return { data: { type: 'BatchImport', attributes: { target: target.name, dryRun, counts, rows: results } } };
}
