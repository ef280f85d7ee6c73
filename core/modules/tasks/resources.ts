/*
 * How tasks look on the wire: the Task resource (with its role, assignee and completer names resolved) and the
 * state of its document that every task response carries in `meta.document`.
 */
import type { Knex } from 'knex';
import type { DocumentRow } from '../documents/model.ts';
import { type TaskCaller, whereAssignedTo } from './model.ts';

const iso = (value: Date | string) => new Date(value).toISOString();

/** Tasks of one document (or one task) with the names the resource shows, and whether the caller may run it. */
export function taskRowsWithNames(knex: Knex, caller: TaskCaller) {
  const mine = whereAssignedTo(knex, knex('tasks as a').whereRaw('a.id = t.id'), caller).select(knex.raw('1'));
  return knex('tasks as t')
    .leftJoin('roles as r', 'r.id', 't.role_id')
    .leftJoin('groups as g', 'g.id', 't.group_id')
    .leftJoin('organizations as o', 'o.id', 't.partner_organization_id')
    .leftJoin('one_time_users as ou', 'ou.id', 't.one_time_user_id')
    .leftJoin('users as cu', 'cu.id', 't.completed_by')
    .leftJoin('one_time_users as cou', 'cou.id', 't.completed_by_one_time_user_id')
    .select(
      't.*',
      'r.name as role_name',
      'g.name as group_name',
      'o.name as partner_name',
      'ou.name as one_time_user_name',
      'ou.email as one_time_user_email',
      knex.raw('coalesce(cu.name, cou.name, cou.email) as completed_by_name'),
      knex.raw('EXISTS (?) AS mine', [mine]),
    )
    .orderBy([{ column: 't.task_order' }, { column: 't.created_at' }, { column: 't.id' }]);
}

/** The assignee as shown: kind, id and name (and a one-time user's e-mail address). */
export function assigneeOf(row: Record<string, any>) {
  if (row.assignee_kind === 'group') return { kind: 'group' as const, id: row.group_id, name: row.group_name ?? null };
  if (row.assignee_kind === 'organization') {
    return { kind: 'organization' as const, id: row.partner_organization_id, name: row.partner_name ?? null };
  }
  return {
    kind: 'one_time_user' as const,
    id: row.one_time_user_id ?? null,
    name: row.one_time_user_name ?? null,
    email: row.one_time_user_email ?? null,
  };
}

/** Who completed the task: a user, or a one-time user (by their id). */
function completedByOf(row: Record<string, any>) {
  const id = (row.completed_by ?? row.completed_by_one_time_user_id) as string | null;
  return id ? { id, name: row.completed_by_name as string } : null;
}

/** A sender-placed field as the contract shows it. */
export interface TaskFieldResource {
  id: string;
  kind: 'signature' | 'seal' | 'handwritten' | 'text';
  page: number;
  rect: { x1: number; y1: number; x2: number; y2: number };
  required: boolean;
  label: string | null;
}

/** The fields of the given tasks, by task id, in their order. */
export async function taskFieldsOf(knex: Knex, taskIds: string[]): Promise<Map<string, TaskFieldResource[]>> {
  const byTask = new Map<string, TaskFieldResource[]>();
  if (taskIds.length === 0) return byTask;
  const rows: Record<string, any>[] = await knex('task_fields')
    .whereIn('task_id', taskIds)
    .orderBy([{ column: 'task_id' }, { column: 'position' }, { column: 'id' }]);
  for (const row of rows) {
    const list = byTask.get(row.task_id) ?? [];
    list.push({
      id: row.id as string,
      kind: row.kind,
      page: row.page as number,
      rect: { x1: Number(row.x1), y1: Number(row.y1), x2: Number(row.x2), y2: Number(row.y2) },
      required: row.required as boolean,
      label: (row.label as string | null) ?? null,
    });
    byTask.set(row.task_id, list);
  }
  return byTask;
}

export function taskResource(row: Record<string, any>, scanClean: boolean, fields: TaskFieldResource[] = []) {
  return {
    type: 'Task' as const,
    id: row.id as string,
    attributes: {
      documentId: row.document_id as string,
      order: row.task_order as number,
      type: row.type,
      role: row.role_id ? { id: row.role_id as string, name: row.role_name as string } : null,
      assignee: assigneeOf(row),
      required: row.required as boolean,
      templateId: (row.template_id as string | null) ?? null,
      status: row.status,
      completedBy: completedByOf(row),
      completedAt: row.completed_at ? iso(row.completed_at) : null,
      executableByMe: row.status === 'active' && Boolean(row.mine) && scanClean,
      signatureType: (row.signature_type as string | null) ?? null,
      twoFactor: (row.two_factor as 'none' | 'sms' | 'email') ?? 'none',
      fields,
      allowSignerPlacements: (row.allow_signer_placements as boolean | undefined) ?? true,
      lockVersion: row.lock_version as number,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    },
  };
}

async function documentState(knex: Knex, documentId: string) {
  const document = (await knex('documents').where({ id: documentId }).first()) as DocumentRow;
  const latest = await knex('document_versions')
    .where({ document_id: documentId })
    .orderBy('version', 'desc')
    .first('scan_status');
  return {
    scanClean: latest?.scan_status === 'clean',
    meta: {
      document: {
        id: document.id,
        name: document.name,
        status: document.status,
        currentOrder: document.current_order,
        lockVersion: document.lock_version,
      },
    },
  };
}

/** Body of getDocumentTasks / replaceDocumentTasks. */
export async function taskListBody(knex: Knex, caller: TaskCaller, documentId: string) {
  const { scanClean, meta } = await documentState(knex, documentId);
  const rows = await taskRowsWithNames(knex, caller).where('t.document_id', documentId);
  const fields = await taskFieldsOf(
    knex,
    rows.map((r: Record<string, any>) => r.id as string),
  );
  return { data: rows.map((row) => taskResource(row, scanClean, fields.get(row.id) ?? [])), meta };
}

/** Body of every single-task response. */
export async function taskBody(knex: Knex, caller: TaskCaller, taskId: string) {
  const row = await taskRowsWithNames(knex, caller).where('t.id', taskId).first();
  const { scanClean, meta } = await documentState(knex, row.document_id);
  const fields = await taskFieldsOf(knex, [taskId]);
  return { data: taskResource(row, scanClean, fields.get(taskId) ?? []), meta };
}
