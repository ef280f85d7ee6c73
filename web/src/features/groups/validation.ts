import type { ErrorCode } from '../../api/errors.ts';

/** A group's input problems, with the code the server would answer (VALIDATION_FAILED for schema rules). */
export interface Problem {
  code: ErrorCode;
  reason?: 'required' | 'tooLong';
  params?: Record<string, number>;
}
export type Problems = Partial<Record<'name' | 'systemLinkId', Problem[]>>;

export const GROUP_NAME_MAX = 100;
export const SYSTEM_LINK_ID_MAX = 100;

export interface GroupInput {
  name: string;
  systemLinkId: string;
}

/** Name: required, at most 100 characters; ID for system link: optional, at most 100. */
export function validateGroup(input: GroupInput): Problems {
  const name = input.name.trim();
  const problems: Problems = {};
  if (name.length === 0) problems.name = [{ code: 'VALIDATION_FAILED', reason: 'required' }];
  else if (name.length > GROUP_NAME_MAX) {
    problems.name = [{ code: 'VALIDATION_FAILED', reason: 'tooLong', params: { max: GROUP_NAME_MAX } }];
  }
  if (input.systemLinkId.trim().length > SYSTEM_LINK_ID_MAX) {
    problems.systemLinkId = [{ code: 'VALIDATION_FAILED', reason: 'tooLong', params: { max: SYSTEM_LINK_ID_MAX } }];
  }
  return problems;
}

/** The request attributes: trimmed, an empty ID for system link sent as null. */
export function groupAttributes(input: GroupInput) {
  return { name: input.name.trim(), systemLinkId: input.systemLinkId.trim() || null };
}

/** A 422's field errors by field name (`/data/attributes/name` → name). */
export function serverProblems(errors: { code: ErrorCode; source?: { pointer: string } }[]): Problems {
  const problems: Problems = {};
  for (const error of errors) {
    const field = error.source?.pointer.replace(/^\/data\/attributes\//, '');
    if (field === 'name' || field === 'systemLinkId') (problems[field] ??= []).push({ code: error.code });
  }
  return problems;
}
