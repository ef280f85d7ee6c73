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

/** Runs a write to a template table, turning a unique violation (two requests at once) into its coded error. */
export function uniqueTemplateWrite<T>(table: TemplateTable, write: () => Promise<T>): Promise<T> {
  return uniquely(write, constraintsOf(table));
}
