import { describe, expect, it } from 'vitest';
import { checkTaskPlan, MAX_TASKS, type PlannedTask } from './rules.ts';

const OWNER = 'org-owner';
const PARTNER = 'org-partner';
const ctx = { ownerOrganizationId: OWNER, callerOrganizationId: OWNER };
const ownGroup = { kind: 'group' as const, groupId: 'g1', organizationId: OWNER };
const partner = { kind: 'organization' as const, organizationId: PARTNER };

function task(patch: Partial<PlannedTask> = {}): PlannedTask {
  return { order: 1, type: 'approve', assignee: ownGroup, required: true, ...patch };
}

const codes = (tasks: PlannedTask[], context = ctx) => checkTaskPlan(tasks, context).map((e) => e.code);

describe('checkTaskPlan', () => {
  it('accepts a sequential plan with a parallel read task and a final read for a partner', () => {
    const plan = [
      task({ order: 1 }),
      task({ order: 2, type: 'sign' }),
      task({ order: 2, type: 'read', assignee: partner, required: false }),
      task({ order: 3, type: 'read', assignee: partner }),
    ];
    expect(checkTaskPlan(plan, ctx)).toEqual([]);
  });

  it('rejects a second task with order 1 (TASK_ORDER_ONE_NOT_UNIQUE)', () => {
    expect(checkTaskPlan([task(), task({ assignee: partner })], ctx)).toEqual([
      { code: 'TASK_ORDER_ONE_NOT_UNIQUE', pointer: '/data/attributes/tasks/1/order' },
    ]);
  });

  it('rejects orders with a gap (TASK_ORDER_GAP)', () => {
    expect(checkTaskPlan([task(), task({ order: 3 })], ctx)).toEqual([
      { code: 'TASK_ORDER_GAP', pointer: '/data/attributes/tasks/1/order' },
    ]);
    expect(codes([task({ order: 2 })])).toEqual(['TASK_ORDER_GAP']);
  });

  it('rejects a read task that is neither last nor parallel (TASK_READ_NOT_LAST)', () => {
    expect(checkTaskPlan([task(), task({ order: 2, type: 'read' }), task({ order: 3 })], ctx)).toEqual([
      { code: 'TASK_READ_NOT_LAST', pointer: '/data/attributes/tasks/1/type' },
    ]);
  });

  it('rejects two read tasks sharing a middle order: parallel means next to a non-read task', () => {
    const plan = [task(), task({ order: 2, type: 'read' }), task({ order: 2, type: 'read' }), task({ order: 3 })];
    expect(codes(plan)).toEqual(['TASK_READ_NOT_LAST', 'TASK_READ_NOT_LAST']);
  });

  it('requires a required task for a group of the caller’s organization (TASK_OWN_GROUP_REQUIRED)', () => {
    expect(codes([task({ required: false })])).toEqual(['TASK_OWN_GROUP_REQUIRED']);
    expect(codes([task({ assignee: partner }), task({ order: 2, required: false })])).toEqual([
      'TASK_OWN_GROUP_REQUIRED',
    ]);
  });

  it('requires a task for the workspace owner organization (TASK_OWNER_ORGANIZATION_REQUIRED)', () => {
    const partnerCaller = { ownerOrganizationId: OWNER, callerOrganizationId: PARTNER };
    const partnerGroup = { kind: 'group' as const, groupId: 'pg', organizationId: PARTNER };
    expect(codes([task({ assignee: partnerGroup })], partnerCaller)).toEqual(['TASK_OWNER_ORGANIZATION_REQUIRED']);
    expect(codes([task({ assignee: partnerGroup }), task({ order: 2 })], partnerCaller)).toEqual([]);
  });

  it('rejects a role that cannot execute the task type (ROLE_CANNOT_PERFORM_TASK)', () => {
    const viewer = { taskPermissions: { approve: { execute: false, view: true }, read: { execute: true } } };
    expect(checkTaskPlan([task({ roleId: 'r', role: viewer })], ctx)).toEqual([
      { code: 'ROLE_CANNOT_PERFORM_TASK', pointer: '/data/attributes/tasks/0/roleId', params: { type: 'approve' } },
    ]);
    expect(codes([task({ type: 'read', roleId: 'r', role: viewer })])).toEqual([]);
  });

  it('rejects a task template ID used twice in the document (TASK_TEMPLATE_ID_DUPLICATE)', () => {
    const plan = [task({ templateId: 'T1' }), task({ order: 2, templateId: 'T1' }), task({ order: 3 })];
    expect(checkTaskPlan(plan, ctx)).toEqual([
      { code: 'TASK_TEMPLATE_ID_DUPLICATE', pointer: '/data/attributes/tasks/1/templateId' },
    ]);
  });

  it(`rejects more than ${MAX_TASKS} tasks (TASK_LIMIT)`, () => {
    const plan = Array.from({ length: MAX_TASKS + 1 }, (_, i) => task({ order: i + 1 }));
    expect(checkTaskPlan(plan, ctx)).toEqual([
      { code: 'TASK_LIMIT', pointer: '/data/attributes/tasks', params: { max: MAX_TASKS } },
    ]);
    expect(codes(plan.slice(0, MAX_TASKS))).toEqual([]);
  });

  it('points at another list when asked (templates)', () => {
    const errors = checkTaskPlan([task(), task()], { ...ctx, pointer: '/data/attributes/documents/0/tasks' });
    expect(errors[0]?.pointer).toBe('/data/attributes/documents/0/tasks/1/order');
  });
});
