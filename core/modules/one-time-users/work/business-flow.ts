/*
 * getOneTimeBusinessFlow: the guest's flow as they see it — the documents carrying a task of theirs, each with the
 * guest's own tasks (and whether each is runnable now) and the document's other tasks as who and state only.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../../deps.ts';
import type { GuestPrincipal } from '../../../http/context.ts';
import { AppError } from '../../../http/errors.ts';
import { type TaskFieldResource, taskFieldsOf } from '../../tasks/resources.ts';

type Row = Record<string, any>;

/** Who runs another party's task, by name only. */
function assigneeName(task: Row): string | null {
  if (task.assignee_kind === 'group') return task.group_name ?? null;
  if (task.assignee_kind === 'organization') return task.partner_name ?? null;
  return task.one_time_user_name ?? null;
}

function documentTasks(knex: Knex, documentIds: string[]) {
  return knex('tasks as t')
    .leftJoin('groups as g', 'g.id', 't.group_id')
    .leftJoin('organizations as o', 'o.id', 't.partner_organization_id')
    .leftJoin('one_time_users as u', 'u.id', 't.one_time_user_id')
    .whereIn('t.document_id', documentIds)
    .whereNot('t.status', 'cancelled')
    .orderBy([{ column: 't.task_order' }, { column: 't.created_at' }, { column: 't.id' }])
    .select('t.*', 'g.name as group_name', 'o.name as partner_name', 'u.name as one_time_user_name');
}

/** The latest version of each document: page count and scan verdict. */
async function latestVersions(knex: Knex, documentIds: string[]): Promise<Map<string, Row>> {
  const rows: Row[] = await knex('document_versions')
    .whereIn('document_id', documentIds)
    .distinctOn('document_id')
    .orderBy([{ column: 'document_id' }, { column: 'version', order: 'desc' }])
    .select('document_id', 'page_count', 'scan_status');
  return new Map(rows.map((r) => [r.document_id as string, r]));
}

export async function oneTimeBusinessFlowBody(deps: CoreDeps, guest: GuestPrincipal, businessFlowId: string) {
  const { knex } = deps;
  if (businessFlowId !== guest.businessFlowId) throw new AppError('NOT_FOUND');
  const flow = await knex('business_flows as f')
    .join('workspaces as w', 'w.id', 'f.workspace_id')
    .join('organizations as o', 'o.id', 'f.organization_id')
    .where('f.id', businessFlowId)
    .first('f.id', 'f.name', 'f.status', 'w.name as workspace_name', 'o.name as organization_name');
  if (!flow) throw new AppError('NOT_FOUND');
  const documents: Row[] = await knex('documents as d')
    .where('d.business_flow_id', businessFlowId)
    .whereExists(
      knex('tasks as t')
        .whereRaw('t.document_id = d.id')
        .where('t.one_time_user_id', guest.oneTimeUserId)
        .select(knex.raw('1')),
    )
    .orderBy([{ column: 'd.created_at' }, { column: 'd.id' }])
    .select('d.*');
  const ids = documents.map((d) => d.id as string);
  const tasks: Row[] = ids.length ? await documentTasks(knex, ids) : [];
  const versions = ids.length ? await latestVersions(knex, ids) : new Map<string, Row>();
  const fields = await taskFieldsOf(
    knex,
    tasks.filter((t) => t.one_time_user_id === guest.oneTimeUserId).map((t) => t.id as string),
  );
  return {
    data: {
      type: 'OneTimeBusinessFlow' as const,
      id: flow.id as string,
      attributes: {
        name: flow.name as string,
        status: flow.status,
        organizationName: flow.organization_name as string,
        workspaceName: flow.workspace_name as string,
        documents: documents.map((document) =>
          documentOf(
            deps,
            guest,
            flow.status,
            document,
            tasks.filter((t) => t.document_id === document.id),
            versions,
            fields,
          ),
        ),
      },
    },
  };
}

function documentOf(
  deps: CoreDeps,
  guest: GuestPrincipal,
  flowStatus: string,
  document: Row,
  tasks: Row[],
  versions: Map<string, Row>,
  fields: Map<string, TaskFieldResource[]>,
) {
  const latest = versions.get(document.id);
  const open =
    flowStatus !== 'cancelled' &&
    ['in_progress', 'remanded'].includes(document.status) &&
    latest?.scan_status === 'clean';
  const mine = tasks.filter((t) => t.one_time_user_id === guest.oneTimeUserId);
  return {
    id: document.id as string,
    name: document.name as string,
    status: document.status,
    currentOrder: (document.current_order as number | null) ?? null,
    lockVersion: document.lock_version as number,
    pageCount: (latest?.page_count as number | null) ?? null,
    downloadable: document.status === 'completed',
    tasks: mine.map((t) => ({
      id: t.id as string,
      order: t.task_order as number,
      type: t.type,
      status: t.status,
      required: t.required as boolean,
      signatureType: (t.signature_type as string | null) ?? null,
      twoFactor: t.two_factor,
      requiredPlacement: t.signature_type
        ? deps.signatureTypes.has(t.signature_type)
          ? deps.signatureTypes.get(t.signature_type).requiredPlacement
          : null
        : null,
      fields: fields.get(t.id) ?? [],
      allowSignerPlacements: (t.allow_signer_placements as boolean | undefined) ?? true,
      lockVersion: t.lock_version as number,
      runnable: open && t.status === 'active' && document.current_order === t.task_order,
    })),
    otherTasks: tasks
      .filter((t) => t.one_time_user_id !== guest.oneTimeUserId)
      .map((t) => ({
        order: t.task_order as number,
        type: t.type,
        status: t.status,
        assignee: { kind: t.assignee_kind, name: assigneeName(t) },
      })),
  };
}
