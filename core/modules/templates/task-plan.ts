import type { Knex } from 'knex';
import { AppError, type FieldError } from '../../http/errors.ts';
import { normaliseTaskPermissions, type TaskPermissions } from '../roles/service.ts';
import { checkTaskPlan, type PlannedTask } from '../tasks/rules.ts';

/** A task of a document template as the API takes it: templates assign own groups only. */
export interface TemplateTaskInput {
  order: number;
  type: 'sign' | 'approve' | 'read';
  roleId?: string | null;
  assignee: { kind: 'group'; groupId: string };
  required?: boolean;
  templateId?: string | null;
}

/**
 * A task as document_templates.tasks stores it: the shape the tasks module's replaceDocumentTasks takes when a
 * document is created from the template (absent roleId and templateId are left out, not null).
 */
export interface StoredTemplateTask {
  order: number;
  type: 'sign' | 'approve' | 'read';
  roleId?: string;
  assignee: { kind: 'group'; groupId: string };
  required: boolean;
  templateId?: string;
}

const pointer = (index: number, field: string) => `/data/attributes/tasks/${index}/${field}`;

/**
 * Checks a template's task plan as a document's plan is checked (the tasks module's checkTaskPlan, with the caller's
 * organization as the workspace owner), after resolving groups and roles within the organization: an unknown one
 * is 422 REFERENCE_NOT_FOUND at its pointer. An empty plan is allowed (tasks are then set on the document).
 */
export async function checkTemplateTasks(
  trx: Knex,
  organizationId: string,
  tasks: TemplateTaskInput[],
): Promise<StoredTemplateTask[]> {
  const groupIds = [...new Set(tasks.map((t) => t.assignee.groupId))];
  const roleIds = [...new Set(tasks.flatMap((t) => (t.roleId ? [t.roleId] : [])))];
  const groups = new Set(
    groupIds.length
      ? ((await trx('groups')
          .where({ organization_id: organizationId })
          .whereIn('id', groupIds)
          .pluck('id')) as string[])
      : [],
  );
  const roles = new Map(
    roleIds.length
      ? (
          (await trx('roles')
            .where({ organization_id: organizationId })
            .whereIn('id', roleIds)
            .select('id', 'task_permissions')) as { id: string; task_permissions: TaskPermissions }[]
        ).map((r) => [r.id, normaliseTaskPermissions(r.task_permissions)])
      : [],
  );
  const problems: FieldError[] = [];
  tasks.forEach((task, index) => {
    if (!groups.has(task.assignee.groupId)) {
      problems.push({ code: 'REFERENCE_NOT_FOUND', pointer: pointer(index, 'assignee/groupId') });
    }
    if (task.roleId && !roles.has(task.roleId))
      problems.push({ code: 'REFERENCE_NOT_FOUND', pointer: pointer(index, 'roleId') });
  });
  if (problems.length > 0) throw AppError.invalid(problems);
  if (tasks.length === 0) return [];
  const planned: PlannedTask[] = tasks.map((task) => ({
    order: task.order,
    type: task.type,
    roleId: task.roleId ?? null,
    ...(task.roleId ? { role: { taskPermissions: roles.get(task.roleId)! } } : {}),
    assignee: { kind: 'group', groupId: task.assignee.groupId, organizationId },
    required: task.required ?? true,
    templateId: task.templateId ?? null,
  }));
  const violations = checkTaskPlan(planned, {
    ownerOrganizationId: organizationId,
    callerOrganizationId: organizationId,
  });
  if (violations.length > 0) throw AppError.invalid(violations);
  return tasks.map(storedTask);
}

function storedTask(task: TemplateTaskInput): StoredTemplateTask {
  return {
    order: task.order,
    type: task.type,
    ...(task.roleId ? { roleId: task.roleId } : {}),
    assignee: { kind: 'group', groupId: task.assignee.groupId },
    required: task.required ?? true,
    ...(task.templateId ? { templateId: task.templateId } : {}),
  };
}
