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

export function taskResource(row: Record<string, any>, scanClean: boolean) {
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
  return { data: rows.map((row) => taskResource(row, scanClean)), meta };
}

/** Body of every single-task response. */
export async function taskBody(knex: Knex, caller: TaskCaller, taskId: string) {
  const row = await taskRowsWithNames(knex, caller).where('t.id', taskId).first();
  const { scanClean, meta } = await documentState(knex, row.document_id);
  return { data: taskResource(row, scanClean), meta };
}
