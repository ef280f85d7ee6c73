/*
 * A document created from a document template takes the template's type, properties and tasks. The template
 * must belong to the workspace owner organization (otherwise 422 REFERENCE_NOT_FOUND at /documentTemplateId);
 * its tasks are created through the tasks module, which checks the plan against the workspace.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import type { PropertyValueInput } from '../properties/values.ts';
import { replaceDocumentTasks } from '../tasks/plan.ts';
import type { WorkspaceAccess } from '../workspaces/access.ts';
import type { DocumentActor, DocumentRow, DocumentType } from './model.ts';

/** What a template gives a new document. */
export interface TemplateDefaults {
  id: string;
  documentType: DocumentType;
  properties: PropertyValueInput[];
  /** Task rows of document_templates.tasks, in the tasks module's TaskInput shape. */
  tasks: unknown[];
}

async function load(trx: Knex.Transaction, organizationId: string, templateId: string): Promise<TemplateDefaults> {
  const row = await trx('document_templates')
    .where({ id: templateId, organization_id: organizationId })
    .first('id', 'document_type', 'properties', 'tasks');
  if (!row) throw new AppError('REFERENCE_NOT_FOUND', { pointer: '/documentTemplateId' });
  return {
    id: row.id,
    documentType: row.document_type,
    properties: (row.properties as { propertyId: string; value: string | number | null }[]).map((p) => ({
      propertyId: p.propertyId,
      value: p.value,
    })),
    tasks: row.tasks as unknown[],
  };
}

/** Creates the template's tasks on the new document through the tasks module (its rules and mails apply). */
async function tasks(
  deps: CoreDeps,
  trx: Knex.Transaction,
  input: { document: DocumentRow; access: WorkspaceAccess; template: TemplateDefaults; actor: DocumentActor },
): Promise<void> {
  if (input.template.tasks.length === 0) return;
  await replaceDocumentTasks(deps, trx, {
    document: input.document,
    access: input.access,
    tasks: input.template.tasks,
    actor: input.actor,
    pointer: '/documentTemplateId',
  });
}

export const applyDocumentTemplate = { load, tasks };
