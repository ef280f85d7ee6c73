import type { Knex } from 'knex';
import { AppError } from '../../http/errors.ts';
import { type StoredTemplateValue, showTemplateValues } from './property-values.ts';
import type { StoredTemplateTask } from './task-plan.ts';

type Row = Record<string, any>;

/** Document templates of one organization, with how many flow templates use each. */
export function documentTemplateScope(knex: Knex, organizationId: string) {
  return knex('document_templates as t')
    .where('t.organization_id', organizationId)
    .select(
      't.*',
      knex.raw(
        '(SELECT count(DISTINCT d.business_flow_template_id)::int FROM business_flow_template_documents d WHERE d.document_template_id = t.id) AS used_by',
      ),
    );
}

export function businessFlowTemplateScope(knex: Knex, organizationId: string) {
  return knex('business_flow_templates as t').where('t.organization_id', organizationId).select('t.*');
}

/** Names of the groups and roles a page of task plans refers to. */
async function namesOf(knex: Knex, organizationId: string, rows: Row[]) {
  const tasks = rows.flatMap((r) => r.tasks as StoredTemplateTask[]);
  const groupIds = [...new Set(tasks.map((t) => t.assignee.groupId))];
  const roleIds = [...new Set(tasks.flatMap((t) => (t.roleId ? [t.roleId] : [])))];
  const named = async (table: string, ids: string[]) =>
    new Map(
      ids.length
        ? (
            (await knex(table)
              .where({ organization_id: organizationId })
              .whereIn('id', ids)
              .select('id', 'name')) as Row[]
          ).map((r) => [r.id as string, r.name as string])
        : [],
    );
  return { groups: await named('groups', groupIds), roles: await named('roles', roleIds) };
}

/** The JSON:API resources of some document template rows (one query per kind of name, not per row). */
export async function documentTemplateResources(knex: Knex, organizationId: string, rows: Row[]) {
  const { groups, roles } = await namesOf(knex, organizationId, rows);
  const properties = await showTemplateValues(
    knex,
    organizationId,
    rows.map((r) => r.properties as StoredTemplateValue[]),
  );
  return rows.map((row, index) => ({
    type: 'DocumentTemplate' as const,
    id: row.id as string,
    attributes: {
      name: row.name,
      systemLinkId: row.system_link_id,
      documentType: row.document_type,
      tasks: (row.tasks as StoredTemplateTask[]).map((task) => ({
        order: task.order,
        type: task.type,
        roleId: task.roleId ?? null,
        roleName: task.roleId ? (roles.get(task.roleId) ?? null) : null,
        assignee: {
          kind: 'group' as const,
          groupId: task.assignee.groupId,
          name: groups.get(task.assignee.groupId) ?? null,
        },
        required: task.required,
        templateId: task.templateId ?? null,
      })),
      properties: properties[index]!,
      readingPositions: row.reading_positions,
      sample: row.sample_sha256
        ? {
            fileName: row.sample_file_name as string,
            pageCount: row.sample_page_count as number | null,
            size: Number(row.sample_size),
            uploadedAt: new Date(row.sample_uploaded_at).toISOString(),
          }
        : null,
      usedBy: Number(row.used_by ?? 0),
      lockVersion: row.lock_version,
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    },
  }));
}

export async function documentTemplateBody(knex: Knex, organizationId: string, id: string) {
  const row = await documentTemplateScope(knex, organizationId).where('t.id', id).first();
  if (!row) throw new AppError('NOT_FOUND');
  return { data: (await documentTemplateResources(knex, organizationId, [row]))[0]! };
}

/** The JSON:API resources of some business flow template rows, with their documents in order. */
export async function businessFlowTemplateResources(knex: Knex, organizationId: string, rows: Row[]) {
  const ids = rows.map((r) => r.id as string);
  const documents = (
    ids.length
      ? await knex('business_flow_template_documents as d')
          .join('document_templates as t', 't.id', 'd.document_template_id')
          .whereIn('d.business_flow_template_id', ids)
          .orderBy([{ column: 'd.position' }, { column: 'd.id' }])
          .select('d.business_flow_template_id', 'd.document_template_id', 'd.template_id', 't.name', 't.document_type')
      : []
  ) as Row[];
  const properties = await showTemplateValues(
    knex,
    organizationId,
    rows.map((r) => r.properties as StoredTemplateValue[]),
  );
  return rows.map((row, index) => ({
    type: 'BusinessFlowTemplate' as const,
    id: row.id as string,
    attributes: {
      name: row.name,
      systemLinkId: row.system_link_id,
      comment: row.comment,
      autoComplete: row.auto_complete,
      properties: properties[index]!,
      documents: documents
        .filter((d) => d.business_flow_template_id === row.id)
        .map((d) => ({
          documentTemplateId: d.document_template_id,
          templateId: d.template_id,
          name: d.name,
          documentType: d.document_type,
        })),
      lockVersion: row.lock_version,
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    },
  }));
}

export async function businessFlowTemplateBody(knex: Knex, organizationId: string, id: string) {
  const row = await businessFlowTemplateScope(knex, organizationId).where('t.id', id).first();
  if (!row) throw new AppError('NOT_FOUND');
  return { data: (await businessFlowTemplateResources(knex, organizationId, [row]))[0]! };
}
