import type { Knex } from 'knex';
import { AppError, type FieldError } from '../../http/errors.ts';
import { uniquely } from '../users/validation.ts';

/** The two template tables; both have a name and an ID for system link unique within the organization. */
export type TemplateTable = 'document_templates' | 'business_flow_templates';

const at = (field: string) => `/data/attributes/${field}`;

/** The unique constraints of a template table, mapped to the errors a race on them becomes. */
function constraintsOf(table: TemplateTable) {
  return {
    [`${table}_organization_id_name_unique`]: { code: 'TEMPLATE_NAME_TAKEN' as const, pointer: at('name') },
    [`${table}_organization_id_system_link_id_unique`]: {
      code: 'SYSTEM_LINK_ID_TAKEN' as const,
      pointer: at('systemLinkId'),
    },
    business_flow_template_documents_business_flow_template_id_template_id_unique: {
      code: 'DOCUMENT_TEMPLATE_ID_DUPLICATE' as const,
      pointer: at('documents'),
    },
  };
}

/**
 * Refuses a name (409 TEMPLATE_NAME_TAKEN) or an ID for system link (422 SYSTEM_LINK_ID_TAKEN) that another template
 * of the organization already has; both problems are reported at once.
 */
export async function assertUniqueNames(
  trx: Knex,
  table: TemplateTable,
  organizationId: string,
  input: { name?: string; systemLinkId?: string | null },
  exceptId?: string,
): Promise<void> {
  const problems: FieldError[] = [];
  if (input.name !== undefined && input.name.trim() === '')
    problems.push({ code: 'VALIDATION_FAILED', pointer: at('name') });
  if (problems.length > 0) throw AppError.invalid(problems);
  const others = () => {
    const q = trx(table).where({ organization_id: organizationId });
    if (exceptId) q.whereNot({ id: exceptId });
    return q;
  };
  if (input.name !== undefined && (await others().where({ name: input.name }).first('id'))) {
    problems.push({ code: 'TEMPLATE_NAME_TAKEN', pointer: at('name') });
  }
  if (input.systemLinkId && (await others().where({ system_link_id: input.systemLinkId }).first('id'))) {
    problems.push({ code: 'SYSTEM_LINK_ID_TAKEN', pointer: at('systemLinkId') });
  }
  if (problems.length > 0) throw AppError.invalid(problems);
}

/** Runs a write to a template table, turning a unique violation (two requests at once) into its coded error. */
export function uniqueTemplateWrite<T>(table: TemplateTable, write: () => Promise<T>): Promise<T> {
  return uniquely(write, constraintsOf(table));
}
