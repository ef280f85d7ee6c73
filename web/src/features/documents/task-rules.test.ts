import { describe, expect, it } from 'vitest';
import {
  checkTasks,
  compactOrders,
  remandTargets,
  serverTaskProblems,
  type TaskRow,
  type TaskRuleContext,
} from './task-rules.ts';

const OWN = 'org-a';
const PARTNER = 'org-b';
const context: TaskRuleContext = {
  ownOrganizationId: OWN,
  ownerOrganizationId: OWN,
  groupOrganization: (groupId) => (groupId.startsWith('a-') ? OWN : undefined),
};

let counter = 0;
const row = (order: number, type: TaskRow['type'], assignee: string, extra: Partial<TaskRow> = {}): TaskRow => ({
  key: `row-${(counter += 1)}`,
  order,
  type,
  assignee,
  roleId: '',
  required: true,
  templateId: '',
  ...extra,
});

const codes = (rows: TaskRow[], ctx = context) => checkTasks(rows, ctx).map((p) => [p.row, p.code]);

describe('task rules checked in the browser', () => {
  it('accepts an approve task for an own group followed by a read task for the partner', () => {
    expect(codes([row(1, 'approve', 'group:a-1'), row(2, 'read', `organization:${PARTNER}`)])).toEqual([]);
  });

  it('rejects a second task with order 1 (TASK_ORDER_ONE_NOT_UNIQUE on that row)', () => {
    expect(codes([row(1, 'approve', 'group:a-1'), row(1, 'approve', 'group:a-2')])).toEqual([
      [1, 'TASK_ORDER_ONE_NOT_UNIQUE'],
    ]);
  });

  it('rejects a read task that is neither last nor parallel (TASK_READ_NOT_LAST)', () => {
    expect(codes([row(1, 'read', 'group:a-1', { required: false }), row(2, 'approve', 'group:a-2')])).toEqual([
      [0, 'TASK_READ_NOT_LAST'],
    ]);
  });

  it('accepts a read task parallel to another task before the last order', () => {
    const rows = [row(1, 'approve', 'group:a-1'), row(2, 'read', 'group:a-2'), row(2, 'approve', 'group:a-3')];
    expect(codes([...rows, row(3, 'approve', `organization:${PARTNER}`)])).toEqual([]);
  });

  it('rejects read tasks parallel only to each other before the last order (TASK_READ_NOT_LAST)', () => {
    const rows = [row(1, 'approve', 'group:a-1'), row(2, 'read', 'group:a-2'), row(2, 'read', 'group:a-3')];
    expect(codes([...rows, row(3, 'approve', 'group:a-1')])).toEqual([
      [1, 'TASK_READ_NOT_LAST'],
      [2, 'TASK_READ_NOT_LAST'],
    ]);
  });

  it('rejects more than 30 tasks (TASK_LIMIT)', () => {
    const rows = Array.from({ length: 31 }, (_, i) => row(i + 1, 'approve', 'group:a-1'));
    expect(codes(rows)).toEqual([[null, 'TASK_LIMIT']]);
  });

  it('requires at least one required task of an own group (TASK_OWN_GROUP_REQUIRED)', () => {
    expect(
      codes([row(1, 'approve', 'group:a-1', { required: false }), row(2, 'read', `organization:${PARTNER}`)]),
    ).toEqual([[null, 'TASK_OWN_GROUP_REQUIRED']]);
  });

  it('requires a task of the workspace owner organization (TASK_OWNER_ORGANIZATION_REQUIRED)', () => {
    const partnerView: TaskRuleContext = { ...context, ownOrganizationId: PARTNER };
    expect(codes([row(1, 'approve', `organization:${PARTNER}`)], { ...partnerView, ownerOrganizationId: OWN })).toEqual(
      [
        [null, 'TASK_OWN_GROUP_REQUIRED'],
        [null, 'TASK_OWNER_ORGANIZATION_REQUIRED'],
      ],
    );
  });

  it('rejects task template IDs used twice in the document (TASK_TEMPLATE_ID_DUPLICATE)', () => {
    const rows = [
      row(1, 'approve', 'group:a-1', { templateId: 'T1' }),
      row(2, 'read', 'group:a-2', { templateId: 'T1' }),
    ];
    expect(codes(rows)).toEqual([[1, 'TASK_TEMPLATE_ID_DUPLICATE']]);
  });

  it('rejects orders with a gap (TASK_ORDER_GAP) and a row without an assignee', () => {
    expect(codes([row(1, 'approve', 'group:a-1'), row(3, 'approve', '')])).toEqual([
      [1, 'assigneeRequired'],
      [null, 'TASK_ORDER_GAP'],
    ]);
  });

  it('compacts orders to 1, 2, 3 keeping parallel tasks together', () => {
    const rows = compactOrders([
      row(2, 'approve', 'group:a-1'),
      row(5, 'read', 'group:a-2'),
      row(5, 'read', 'group:a-3'),
    ]);
    expect(rows.map((r) => r.order)).toEqual([1, 2, 2]);
  });

  it('maps server pointers /data/attributes/tasks/{i}/{field} to rows and columns', () => {
    expect(
      serverTaskProblems([
        { code: 'TASK_ORDER_ONE_NOT_UNIQUE', source: { pointer: '/data/attributes/tasks/1/order' } },
        { code: 'ROLE_CANNOT_PERFORM_TASK', source: { pointer: '/data/attributes/tasks/0/roleId' } },
        { code: 'TASK_ASSIGNEE_NOT_PARTICIPANT', source: { pointer: '/data/attributes/tasks/2/assignee/groupId' } },
        { code: 'TASK_OWN_GROUP_REQUIRED', source: { pointer: '/data/attributes/tasks' } },
      ]),
    ).toEqual([
      { row: 1, field: 'order', code: 'TASK_ORDER_ONE_NOT_UNIQUE' },
      { row: 0, field: 'roleId', code: 'ROLE_CANNOT_PERFORM_TASK' },
      { row: 2, field: 'assignee', code: 'TASK_ASSIGNEE_NOT_PARTICIPANT' },
      { row: null, code: 'TASK_OWN_GROUP_REQUIRED' },
    ]);
  });

  it('offers every earlier order as a remand target, none for order 1', () => {
    expect(remandTargets(3)).toEqual([1, 2]);
    expect(remandTargets(1)).toEqual([]);
  });
});
