/*
 * Document templates: a document type, a task plan, preset document-scope property values and reading positions
 * that documents created from the template start with. Administrators write them; each change is logged.
 *
 *   createDocumentTemplate(deps, trx, actor, input)                      -> { id }
 *   updateDocumentTemplate(deps, trx, actor, id, { lockVersion, ... })   (lists given replace the stored ones)
 *   deleteDocumentTemplate(deps, trx, actor, id)                         (409 TEMPLATE_IN_USE while a flow template uses it)
 */
import type { Knex } from 'knex';
import { lockedRow, updateWithLock } from '../../db/lock.ts';
import { assertNamedRow } from '../../db/named-rows.ts';
import type { CoreDeps } from '../../deps.ts';
import { SCOPES } from '../../contract/property-values.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import { changeLogger } from '../logs/operation-log.ts';
import type { PropertyValueInput } from '../properties/values.ts';
import type { Actor } from '../users/service.ts';
import { uniqueTemplateWrite } from './naming.ts';
import { checkTemplateValues } from './property-values.ts';
import { checkTemplateTasks, type TemplateTaskInput } from './task-plan.ts';

const log = changeLogger('document_template');

/**
 * Where the AI-OCR option reads a document-scope property: a rectangle on a page of the template's sample PDF, in
 * PDF points from the page's top-left corner as displayed, with a hint of the expected format.
 */
export interface ReadingPosition {
  propertyId: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  hint?: string | null;
}

/**
 * Checks that each position names a document-scope property of the organization (REFERENCE_NOT_FOUND) at most once
 * (READING_POSITION_DUPLICATE); returns them as stored (hint trimmed, null when empty).
 */
async function checkReadingPositions(trx: Knex.Transaction, organizationId: string, positions: ReadingPosition[]) {
  const ids = [...new Set(positions.map((p) => p.propertyId))];
  const known = new Set(
    ids.length === 0
      ? []
      : (
          (await trx('custom_properties')
            .where({ organization_id: organizationId, scope: SCOPES.document })
            .whereIn('id', ids)
            .select('id')) as { id: string }[]
        ).map((r) => r.id),
  );
  const seen = new Set<string>();
  const problems: FieldError[] = [];
  positions.forEach((position, index) => {
    const pointer = `/data/attributes/readingPositions/${index}/propertyId`;
    if (!known.has(position.propertyId)) problems.push({ code: 'REFERENCE_NOT_FOUND', pointer });
    else if (seen.has(position.propertyId)) problems.push({ code: 'READING_POSITION_DUPLICATE', pointer });
    seen.add(position.propertyId);
  });
  if (problems.length > 0) throw AppError.invalid(problems);
  return positions.map(({ propertyId, page, x, y, width, height, hint }) => ({
    propertyId,
    page,
    x,
    y,
    width,
    height,
    hint: hint?.trim() || null,
  }));
}

export interface DocumentTemplateInput {
  name: string;
  systemLinkId?: string | null;
  documentType?: string;
  tasks?: TemplateTaskInput[];
  properties?: PropertyValueInput[];
  readingPositions?: ReadingPosition[];
}

const TABLE = 'document_templates';

/** Validates the parts given and returns their columns (jsonb as text). */
async function columnsOf(
  trx: Knex.Transaction,
  organizationId: string,
  input: Partial<DocumentTemplateInput>,
  now: Date,
) {
  const columns: Record<string, unknown> = { updated_at: now };
  if (input.name !== undefined) columns.name = input.name;
  if (input.systemLinkId !== undefined) columns.system_link_id = input.systemLinkId || null;
  if (input.documentType !== undefined) columns.document_type = input.documentType;
  if (input.tasks !== undefined) {
    columns.tasks = JSON.stringify(await checkTemplateTasks(trx, organizationId, input.tasks));
  }
  if (input.properties !== undefined) {
    columns.properties = JSON.stringify(
      await checkTemplateValues(trx, organizationId, 'document', input.properties, now),
    );
  }
  if (input.readingPositions !== undefined) {
    columns.reading_positions = JSON.stringify(
      await checkReadingPositions(trx, organizationId, input.readingPositions),
    );
  }
  return columns;
}

export async function createDocumentTemplate(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  input: DocumentTemplateInput,
) {
  await assertNamedRow(trx, TABLE, actor.organizationId, input, 'TEMPLATE_NAME_TAKEN');
  const now = deps.clock.now();
  const columns = await columnsOf(trx, actor.organizationId, input, now);
  const [row] = await uniqueTemplateWrite(TABLE, () =>
    trx(TABLE)
      .insert({ ...columns, organization_id: actor.organizationId, created_at: now })
      .returning(['id', 'tasks', 'properties']),
  );
  await log(deps, trx, actor, 'document_template.created', row.id, {
    name: input.name,
    systemLinkId: input.systemLinkId ?? null,
    tasks: row.tasks,
    properties: row.properties,
  });
  return { id: row.id as string };
}

export async function updateDocumentTemplate(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  templateId: string,
  input: Partial<DocumentTemplateInput> & { lockVersion: number },
) {
  const where = { id: templateId, organization_id: actor.organizationId };
  const before = await lockedRow<Record<string, unknown>>(trx, TABLE, where);
  await assertNamedRow(trx, TABLE, actor.organizationId, input, 'TEMPLATE_NAME_TAKEN', templateId);
  const columns = await columnsOf(trx, actor.organizationId, input, deps.clock.now());
  const after = await uniqueTemplateWrite(TABLE, () =>
    updateWithLock<Record<string, unknown>>(trx, TABLE, where, input.lockVersion, columns),
  );
  await log(deps, trx, actor, 'document_template.updated', templateId, {
    before: summaryOf(before),
    after: summaryOf(after),
  });
}

export async function deleteDocumentTemplate(deps: CoreDeps, trx: Knex.Transaction, actor: Actor, templateId: string) {
  const row = await lockedRow<{ name: string }>(trx, TABLE, { id: templateId, organization_id: actor.organizationId });
  const users = (await trx('business_flow_template_documents as d')
    .join('business_flow_templates as t', 't.id', 'd.business_flow_template_id')
    .where('d.document_template_id', templateId)
    .distinct('t.name')
    .orderBy('t.name')) as { name: string }[];
  if (users.length > 0) {
    throw new AppError('TEMPLATE_IN_USE', { detail: `used by: ${users.map((u) => u.name).join(', ')}` });
  }
  await trx(TABLE).where({ id: templateId }).delete();
  await log(deps, trx, actor, 'document_template.deleted', templateId, { name: row.name });
}

function summaryOf(row: Record<string, unknown>) {
  return {
    name: row.name,
    systemLinkId: row.system_link_id,
    documentType: row.document_type,
    tasks: row.tasks,
    properties: row.properties,
    readingPositions: row.reading_positions,
  };
}
