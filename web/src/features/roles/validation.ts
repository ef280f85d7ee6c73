import type { components } from '../../../../core/contract/api.gen.ts';
import type { ErrorCode } from '../../api/errors.ts';

export type TaskPermissions = components['schemas']['TaskPermissions'];
export type TaskType = keyof TaskPermissions;
export type Capability = 'execute' | 'view';

export const TASK_TYPES: TaskType[] = ['sign', 'approve', 'read'];
export const CAPABILITIES: Capability[] = ['execute', 'view'];
export const ROLE_NAME_MAX = 100;
export const SYSTEM_LINK_ID_MAX = 100;

export const NO_PERMISSIONS: TaskPermissions = {
  sign: { execute: false, view: false },
  approve: { execute: false, view: false },
  read: { execute: false, view: false },
};

/**
 * One cell of the matrix changed. Executing a task type implies viewing it (as the server stores it), so turning
 * execute on turns view on, and turning view off turns execute off.
 */
export function setPermission(
  permissions: TaskPermissions,
  type: TaskType,
  capability: Capability,
  on: boolean,
): TaskPermissions {
  const current = permissions[type];
  const next =
    capability === 'execute'
      ? { execute: on, view: on ? true : current.view }
      : { view: on, execute: on ? current.execute : false };
  return { ...permissions, [type]: next };
}

export interface RoleInput {
  name: string;
  systemLinkId: string;
  taskPermissions: TaskPermissions;
}

export interface Problem {
  code: ErrorCode;
  reason?: 'required' | 'tooLong';
  params?: Record<string, number>;
}
export type Problems = Partial<Record<'name' | 'systemLinkId' | 'taskPermissions', Problem[]>>;

export function validateRole(input: RoleInput): Problems {
  const problems: Problems = {};
  const name = input.name.trim();
  if (name.length === 0) problems.name = [{ code: 'VALIDATION_FAILED', reason: 'required' }];
  else if (name.length > ROLE_NAME_MAX) {
    problems.name = [{ code: 'VALIDATION_FAILED', reason: 'tooLong', params: { max: ROLE_NAME_MAX } }];
  }
  if (input.systemLinkId.trim().length > SYSTEM_LINK_ID_MAX) {
    problems.systemLinkId = [{ code: 'VALIDATION_FAILED', reason: 'tooLong', params: { max: SYSTEM_LINK_ID_MAX } }];
  }
  return problems;
}

/** The request attributes: trimmed, an empty ID for system link as null. */
export function roleAttributes(input: RoleInput) {
  return {
    name: input.name.trim(),
    systemLinkId: input.systemLinkId.trim() || null,
    taskPermissions: input.taskPermissions,
  };
}

/** A 422's field errors by field (`/data/attributes/taskPermissions/sign` belongs to taskPermissions). */
export function serverProblems(errors: { code: ErrorCode; source?: { pointer: string } }[]): Problems {
  const problems: Problems = {};
  for (const error of errors) {
    const field = error.source?.pointer.replace(/^\/data\/attributes\//, '').split('/')[0];
    if (field === 'name' || field === 'systemLinkId' || field === 'taskPermissions') {
      (problems[field] ??= []).push({ code: error.code });
    }
  }
  return problems;
}
