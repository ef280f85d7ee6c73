import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import { DEFAULT_SIGNATURE_TYPE, parseAssignee, type TaskRow } from '../task-rules.ts';

export type TaskInput = components['schemas']['TaskPlanItem'];

/**
 * The editor's rows as the contract's task inputs (partner and one-time user tasks take no role; only sign tasks a
 * signature type).
 */
export function taskInputs(rows: TaskRow[]): TaskInput[] {
  return rows.map((row) => {
    const assignee = parseAssignee(row.assignee)!;
    return {
      order: row.order,
      type: row.type,
      roleId: assignee.kind === 'group' && row.roleId ? row.roleId : null,
      assignee:
        assignee.kind === 'group'
          ? { kind: 'group', groupId: assignee.id }
          : assignee.kind === 'one_time_user'
            ? { kind: 'one_time_user', oneTimeUserId: assignee.id }
            : { kind: 'organization', organizationId: assignee.id },
      required: row.required,
      templateId: row.templateId.trim() || null,
      allowSignerPlacements: row.type !== 'sign' || (row.allowSignerPlacements ?? true),
      ...(row.type === 'sign'
        ? {
            signatureType: row.signatureType ?? DEFAULT_SIGNATURE_TYPE,
            twoFactor: row.twoFactor ?? 'none',
            fields: row.fields ?? [],
          }
        : {}),
    };
  });
}

/** PUT /documents/{documentId}/tasks (replaceDocumentTasks): the whole plan, with the document's lockVersion. */
export async function replaceDocumentTasks({
  documentId,
  rows,
  lockVersion,
}: {
  documentId: string;
  rows: TaskRow[];
  lockVersion: number;
}) {
  return unwrap(
    await api.PUT('/documents/{documentId}/tasks', {
      params: { path: { documentId } },
      body: { data: { type: 'DocumentTasks', attributes: { lockVersion, tasks: taskInputs(rows) } } },
    }),
  );
}

export function useReplaceDocumentTasks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replaceDocumentTasks,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['documents'] }),
  });
}
