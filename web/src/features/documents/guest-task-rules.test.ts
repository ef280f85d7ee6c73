import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { taskInputs } from './api/replace-document-tasks.ts';
import { participantChoices } from './participants.ts';
import { checkTasks, parseAssignee, serverTaskProblems, type TaskRow, type TaskRuleContext } from './task-rules.ts';

const OWN = 'org-a';
const context: TaskRuleContext = {
  ownOrganizationId: OWN,
  ownerOrganizationId: OWN,
  groupOrganization: (groupId) => (groupId.startsWith('a-') ? OWN : undefined),
};

let counter = 0;
const row = (order: number, type: TaskRow['type'], assignee: string, extra: Partial<TaskRow> = {}): TaskRow => ({
  key: `guest-row-${(counter += 1)}`,
  order,
  type,
  assignee,
  roleId: '',
  required: true,
  templateId: '',
  ...extra,
});

const problems = (rows: TaskRow[]) => checkTasks(rows, context).map((p) => [p.row, p.field ?? null, p.code]);
const own = row(1, 'approve', 'group:a-1');

describe('one-time user tasks in the editor', () => {
  it('takes a one-time user as an assignee', () => {
    expect(parseAssignee('one_time_user:u-1')).toEqual({ kind: 'one_time_user', id: 'u-1' });
  });

  it('accepts a guest sign task with a business-operator type and an e-mail code', () => {
    const sign = row(2, 'sign', 'one_time_user:u-1', { signatureType: 'handwritten', twoFactor: 'email' });
    expect(problems([own, sign, row(3, 'read', 'one_time_user:u-2')])).toEqual([]);
  });

  it('refuses an e-certificate type or an SMS code for a guest (TASK_ASSIGNEE_CANNOT_USE at that field)', () => {
    const party = row(2, 'sign', 'one_time_user:u-1', { signatureType: 'party', twoFactor: 'none' });
    const sms = row(3, 'sign', 'one_time_user:u-1', { signatureType: 'operator', twoFactor: 'sms' });
    expect(problems([own, party, sms])).toEqual([
      [1, 'signatureType', 'TASK_ASSIGNEE_CANNOT_USE'],
      [2, 'twoFactor', 'TASK_ASSIGNEE_CANNOT_USE'],
    ]);
  });

  it('never counts a guest as the required own-group task or as the owner organization', () => {
    expect(problems([row(1, 'approve', 'one_time_user:u-1')]).map(([, , code]) => code)).toEqual([
      'TASK_OWN_GROUP_REQUIRED',
      'TASK_OWNER_ORGANIZATION_REQUIRED',
    ]);
  });

  it('sends the guest as {kind: one_time_user, oneTimeUserId} without a role', () => {
    const [input] = taskInputs([row(1, 'sign', 'one_time_user:u-1', { roleId: 'role-1', signatureType: 'operator' })]);
    expect(input).toMatchObject({
      assignee: { kind: 'one_time_user', oneTimeUserId: 'u-1' },
      roleId: null,
      signatureType: 'operator',
      twoFactor: 'none',
    });
  });

  it('places the server refusal at the pointed field', () => {
    const placed = serverTaskProblems([
      { code: 'TASK_ASSIGNEE_CANNOT_USE', source: { pointer: '/data/attributes/tasks/1/signatureType' } },
      { code: 'TASK_ASSIGNEE_NOT_PARTICIPANT', source: { pointer: '/data/attributes/tasks/0/assignee/oneTimeUserId' } },
    ]);
    expect(placed).toEqual([
      { row: 1, field: 'signatureType', code: 'TASK_ASSIGNEE_CANNOT_USE' },
      { row: 0, field: 'assignee', code: 'TASK_ASSIGNEE_NOT_PARTICIPANT' },
    ]);
  });
});

describe('one-time users as assignees', () => {
  const t = ((key: string, values: Record<string, string>) => `${key}|${Object.values(values).join('|')}`) as TFunction;
  type Guest = Parameters<typeof participantChoices>[2] extends (infer G)[] | undefined ? G : never;
  const guest = (id: string, name: string | null, email: string | null): Guest => ({
    type: 'OneTimeUser',
    id,
    attributes: { name, email, locale: 'ja', status: 'invited', registeredAt: null, createdAt: '', invitations: [] },
  });

  it('offers the workspace guests with their address, not a QR guest who has not entered one', () => {
    const { assignees } = participantChoices(undefined, t, [
      guest('u-1', '山田 花子', 'hanako@example.com'),
      guest('u-2', null, 'taro@example.com'),
      guest('u-3', null, null),
    ]);
    expect(assignees).toEqual([
      { value: 'one_time_user:u-1', label: 'documents:editor.guestOption|山田 花子|hanako@example.com' },
      { value: 'one_time_user:u-2', label: 'documents:editor.guestOptionName|taro@example.com' },
    ]);
  });
});
