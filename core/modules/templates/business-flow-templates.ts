/*
 * Business flow templates: name, comment, auto-complete, preset flow-scope property values and the document
 * templates a flow created from it starts with (each under a template ID unique within the flow template).
 *
 *   createBusinessFlowTemplate(deps, trx, actor, input)                      -> { id }
 *   updateBusinessFlowTemplate(deps, trx, actor, id, { lockVersion, ... })   (lists given replace the stored ones)
 *   deleteBusinessFlowTemplate(deps, trx, actor, id)
 */
import type { Knex } from 'knex';
import { lockedRow, updateWithLock } from '../../db/lock.ts';
import { assertNamedRow } from '../../db/named-rows.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import { changeLogger } from '../logs/operation-log.ts';
import type { PropertyValueInput } from '../properties/values.ts';
import type { Actor } from '../users/service.ts';
import { uniqueTemplateWrite } from './naming.ts';
import { checkTemplateValues } from './property-values.ts';

const log = changeLogger('business_flow_template');

export interface FlowTemplateDocumentInput {
  documentTemplateId: string;
  templateId: string;
}

export interface BusinessFlowTemplateInput {
  name: string;
  systemLinkId?: string | null;
  comment?: string | null;
  autoComplete?: boolean;
  properties?: PropertyValueInput[];
  documents?: FlowTemplateDocumentInput[];
}

const TABLE = 'business_flow_templates';
const DOCUMENTS = 'business_flow_template_documents';
const pointer = (index: number, field: string) => `/data/attributes/documents/${index}/${field}`;

/**
 * Document template IDs must be unique within the flow template (409 DOCUMENT_TEMPLATE_ID_DUPLICATE at the later
 * duplicate) and name document templates of the organization (422 REFERENCE_NOT_FOUND).
 */
async function checkDocuments(trx: Knex, organizationId: string, documents: FlowTemplateDocumentInput[]) {
  const problems: FieldError[] = [];
  const known = new Set(
    documents.length
      ? ((await trx('document_templates')
          .where({ organization_id: organizationId })
          .whereIn(
            'id',
            documents.map((d) => d.documentTemplateId),
          )
          .pluck('id')) as string[])
      : [],
  );
  const seen = new Set<string>();
  documents.forEach((document, index) => {
    if (!known.has(document.documentTemplateId)) {
      problems.push({ code: 'REFERENCE_NOT_FOUND', pointer: pointer(index, 'documentTemplateId') });
    }
    if (seen.has(document.templateId)) {
      problems.push({ code: 'DOCUMENT_TEMPLATE_ID_DUPLICATE', pointer: pointer(index, 'templateId') });
    }
    seen.add(document.templateId);
  });
  if (problems.length > 0) throw AppError.invalid(problems);
}

async function columnsOf(
  trx: Knex.Transaction,
  organizationId: string,
  input: Partial<BusinessFlowTemplateInput>,
  now: Date,
) {
  const columns: Record<string, unknown> = { updated_at: now };
  if (input.name !== undefined) columns.name = input.name;
  if (input.systemLinkId !== undefined) columns.system_link_id = input.systemLinkId || null;
  if (input.comment !== undefined) columns.comment = input.comment || null;
  if (input.autoComplete !== undefined) columns.auto_complete = input.autoComplete;
  if (input.properties !== undefined) {
    columns.properties = JSON.stringify(
      await checkTemplateValues(trx, organizationId, 'business_flow', input.properties, now),
    );
  }
  if (input.documents !== undefined) await checkDocuments(trx, organizationId, input.documents);
  return columns;
}

async function replaceDocuments(
  trx: Knex.Transaction,
  organizationId: string,
  templateId: string,
  documents: FlowTemplateDocumentInput[] | undefined,
) {
  if (documents === undefined) return;
  await trx(DOCUMENTS).where({ business_flow_template_id: templateId }).delete();
  if (documents.length === 0) return;
  await uniqueTemplateWrite(TABLE, () =>
    trx(DOCUMENTS).insert(
      documents.map((d, position) => ({
        organization_id: organizationId,
        business_flow_template_id: templateId,
        document_template_id: d.documentTemplateId,
        template_id: d.templateId,
        position,
      })),
    ),
  );
}

export async function createBusinessFlowTemplate(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  input: BusinessFlowTemplateInput,
) {
  await assertNamedRow(trx, TABLE, actor.organizationId, input, 'TEMPLATE_NAME_TAKEN');
  const now = deps.clock.now();
  const columns = await columnsOf(trx, actor.organizationId, input, now);
  const [row] = await uniqueTemplateWrite(TABLE, () =>
    trx(TABLE)
      .insert({ ...columns, organization_id: actor.organizationId, created_at: now })
      .returning('*'),
  );
  await replaceDocuments(trx, actor.organizationId, row.id, input.documents);
  await log(deps, trx, actor, 'business_flow_template.created', row.id, {
    ...summaryOf(row),
    documents: input.documents ?? [],
  });
  return { id: row.id as string };
}

export async function updateBusinessFlowTemplate(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  templateId: string,
  input: Partial<BusinessFlowTemplateInput> & { lockVersion: number },
) {
  const where = { id: templateId, organization_id: actor.organizationId };
  const before = await lockedRow<Record<string, unknown>>(trx, TABLE, where);
  await assertNamedRow(trx, TABLE, actor.organizationId, input, 'TEMPLATE_NAME_TAKEN', templateId);
  const columns = await columnsOf(trx, actor.organizationId, input, deps.clock.now());
  const beforeDocuments = await documentsOf(trx, templateId);
  const after = await uniqueTemplateWrite(TABLE, () =>
    updateWithLock<Record<string, unknown>>(trx, TABLE, where, input.lockVersion, columns),
  );
  await replaceDocuments(trx, actor.organizationId, templateId, input.documents);
  await log(deps, trx, actor, 'business_flow_template.updated', templateId, {
    before: { ...summaryOf(before), documents: beforeDocuments },
    after: { ...summaryOf(after), documents: input.documents ?? beforeDocuments },
  });
}

export async function deleteBusinessFlowTemplate(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  templateId: string,
) {
  const row = await lockedRow<{ name: string }>(trx, TABLE, { id: templateId, organization_id: actor.organizationId });
  await trx(TABLE).where({ id: templateId }).delete();
  await log(deps, trx, actor, 'business_flow_template.deleted', templateId, { name: row.name });
}

async function documentsOf(trx: Knex, templateId: string): Promise<FlowTemplateDocumentInput[]> {
  const rows = (await trx(DOCUMENTS)
    .where({ business_flow_template_id: templateId })
    .orderBy('position')
    .select('document_template_id', 'template_id')) as { document_template_id: string; template_id: string }[];
  return rows.map((r) => ({ documentTemplateId: r.document_template_id, templateId: r.template_id }));
}

function summaryOf(row: Record<string, unknown>) {
  return {
    name: row.name,
    systemLinkId: row.system_link_id,
    comment: row.comment,
    autoComplete: row.auto_complete,
    properties: row.properties,
  };
}
