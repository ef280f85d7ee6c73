import type { ErrorCode } from '../../api/errors.ts';

/** A field problem: the code the server would answer, and the local reason when the browser found it. */
export interface Problem {
  code: ErrorCode;
  reason?: 'required' | 'tooLong' | 'groupRequired';
  params?: Record<string, number>;
}
export type WorkspaceField = 'name' | 'systemLinkId' | 'description' | 'groupIds';
export type Problems = Partial<Record<WorkspaceField, Problem[]>>;

export const NAME_MAX = 100;
export const SYSTEM_LINK_ID_MAX = 100;
export const DESCRIPTION_MAX = 1000;

export interface WorkspaceInput {
  name: string;
  systemLinkId: string;
  description: string;
  mailNotification: boolean;
  /** Own groups taking part (creation only). */
  groupIds: string[];
}

const tooLong = (max: number): Problem[] => [{ code: 'VALIDATION_FAILED', reason: 'tooLong', params: { max } }];

/** Name required (≤ 100), ID for system link ≤ 100, description ≤ 1000; on creation at least one own group. */
export function validateWorkspace(input: WorkspaceInput, options: { creating: boolean }): Problems {
  const problems: Problems = {};
  const name = input.name.trim();
  if (name.length === 0) problems.name = [{ code: 'VALIDATION_FAILED', reason: 'required' }];
  else if (name.length > NAME_MAX) problems.name = tooLong(NAME_MAX);
  if (input.systemLinkId.trim().length > SYSTEM_LINK_ID_MAX) problems.systemLinkId = tooLong(SYSTEM_LINK_ID_MAX);
  if (input.description.length > DESCRIPTION_MAX) problems.description = tooLong(DESCRIPTION_MAX);
  if (options.creating && input.groupIds.length === 0) {
    problems.groupIds = [{ code: 'WORKSPACE_PARTICIPANT_REQUIRED', reason: 'groupRequired' }];
  }
  return problems;
}

/** The attributes both creation and update send: trimmed, empty optional texts as null. */
export function workspaceAttributes(input: WorkspaceInput) {
  return {
    name: input.name.trim(),
    systemLinkId: input.systemLinkId.trim() || null,
    description: input.description.trim() || null,
    mailNotification: input.mailNotification,
  };
}

const FIELDS: WorkspaceField[] = ['name', 'systemLinkId', 'description', 'groupIds'];

/** A refusal's field errors by field (`/data/attributes/participants...` belongs to the group choice). */
export function serverProblems(errors: { code: ErrorCode; source?: { pointer: string } }[]): Problems {
  const problems: Problems = {};
  for (const error of errors) {
    const path = error.source?.pointer.replace(/^\/data\/attributes\//, '') ?? '';
    const field = path.startsWith('participants') ? 'groupIds' : (path as WorkspaceField);
    if (FIELDS.includes(field)) (problems[field] ??= []).push({ code: error.code });
  }
  return problems;
}

/** Corporate numbers are 13 half-width digits. */
export const isCorporateNumber = (value: string) => /^\d{13}$/.test(value.trim());
