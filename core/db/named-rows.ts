import type { Knex } from 'knex';
import type { Plan } from '../http/context.ts';
import { AppError, type ErrorCode, type FieldError } from '../http/errors.ts';

/** A reference to a named organization-owned row as an API body (id) or a CSV row (name or ID for system link) holds it. */
export type Ref = { id: string } | { name: string } | { systemLinkId: string };

/** Tables of organization-owned rows that have a name and an ID for system link (groups, roles). */
export type NamedTable = 'groups' | 'roles';

const at = (field: string) => `/data/attributes/${field}`;

/** Resolves references of one organization in one query; each miss is REFERENCE_NOT_FOUND at `pointer/<index>`. */
export async function resolveRefs(trx: Knex, table: NamedTable, organizationId: string, refs: Ref[], pointer: string) {
  const ids: string[] = [];
  const problems: FieldError[] = [];
  const rows: { id: string; name: string; system_link_id: string | null }[] = refs.length
    ? await trx(table)
        .where({ organization_id: organizationId })
        .where((q) => {
          for (const ref of refs) {
            if ('id' in ref) {
              if (/^[0-9a-f-]{36}$/i.test(ref.id)) q.orWhere('id', ref.id);
            } else if ('name' in ref) q.orWhere('name', ref.name);
            else q.orWhere('system_link_id', ref.systemLinkId);
          }
        })
        .select('id', 'name', 'system_link_id')
    : [];
  refs.forEach((ref, index) => {
    const row = rows.find((r) =>
      'id' in ref ? r.id === ref.id : 'name' in ref ? r.name === ref.name : r.system_link_id === ref.systemLinkId,
    );
    if (!row) problems.push({ code: 'REFERENCE_NOT_FOUND', pointer: `${pointer}/${index}` });
    else if (!ids.includes(row.id)) ids.push(row.id);
  });
  return { ids, problems };
}

/**
 * Checks a name (not blank, at most 100 characters) and an ID for system link (at most 100), then that no other
 * row of the organization has either; every problem is reported at once (422). Templates are named rows too.
 */
export async function assertNamedRow(
  trx: Knex,
  table: NamedTable | 'document_templates' | 'business_flow_templates',
  organizationId: string,
  input: { name?: string; systemLinkId?: string | null },
  nameTaken: ErrorCode,
  exceptId?: string,
): Promise<void> {
  const problems: FieldError[] = [];
  if (input.name !== undefined && (input.name.trim() === '' || [...input.name].length > 100)) {
    problems.push({ code: 'VALIDATION_FAILED', pointer: at('name') });
  }
  if (input.systemLinkId && input.systemLinkId.length > 100) {
    problems.push({ code: 'VALIDATION_FAILED', pointer: at('systemLinkId') });
  }
  if (problems.length > 0) throw AppError.invalid(problems);
  const others = () => {
    const q = trx(table).where({ organization_id: organizationId });
    if (exceptId) q.whereNot({ id: exceptId });
    return q;
  };
  if (input.name !== undefined && (await others().where({ name: input.name }).first('id'))) {
    problems.push({ code: nameTaken, pointer: at('name') });
  }
  if (input.systemLinkId && (await others().where({ system_link_id: input.systemLinkId }).first('id'))) {
    problems.push({ code: 'SYSTEM_LINK_ID_TAKEN', pointer: at('systemLinkId') });
  }
  if (problems.length > 0) throw AppError.invalid(problems);
}

/**
 * Refuses a new row once the organization has as many as its plan allows. The organization row is locked, so two
 * requests cannot both take the last free slot.
 */
export async function assertBelowPlanLimit(
  trx: Knex.Transaction,
  table: NamedTable,
  organizationId: string,
  limitOf: (plan: Plan) => number,
  code: ErrorCode,
): Promise<void> {
  const organization = await trx('organizations').where({ id: organizationId }).forUpdate().first('plan');
  const max = limitOf(organization.plan as Plan);
  const counted = await trx(table).where({ organization_id: organizationId }).count({ count: '*' });
  if (Number(counted[0]?.count ?? 0) >= max) throw new AppError(code, { params: { max } });
}
