import { describe, expect, it } from 'vitest';
import type { WizardTask } from './api/draft-flow.ts';
import {
  compactOrders,
  fieldsOf,
  moveRecipient,
  newRecipient,
  type Recipient,
  recipientsOf,
  taskPlan,
  titleFromFile,
  toggleParallel,
} from './wizard-state.ts';

const group = { kind: 'group', id: 'g1', name: '法務部' } as const;
const partner = { kind: 'organization', id: 'o1', name: '株式会社取引先' } as const;
const guest = { kind: 'one_time_user', id: 'u1', name: '鈴木 一郎', email: 'suzuki@example.com' } as const;

function three(): Recipient[] {
  const list: Recipient[] = [];
  for (const assignee of [group, partner, guest]) list.push(newRecipient(assignee, list));
  return list;
}

const orders = (list: Recipient[]) => list.map((r) => [r.assignee.name, r.order]);

describe('the wizard recipients', () => {
  it('adds each recipient in the next order: a group approves, a partner and a guest sign', () => {
    const list = three();
    expect(list.map((r) => [r.order, r.type])).toEqual([
      [1, 'approve'],
      [2, 'sign'],
      [3, 'sign'],
    ]);
  });

  it('makes a recipient parallel to the one before and back, keeping orders without gaps', () => {
    const list = three();
    const parallel = toggleParallel(list, list[2]!.key);
    expect(orders(parallel)).toEqual([
      ['法務部', 1],
      ['株式会社取引先', 2],
      ['鈴木 一郎', 2],
    ]);
    expect(orders(toggleParallel(parallel, list[2]!.key))).toEqual(orders(list));
    // The first recipient has nothing before it to run with.
    expect(orders(toggleParallel(list, list[0]!.key))).toEqual(orders(list));
  });

  it('moves a recipient up and down by swapping orders', () => {
    const list = three();
    expect(orders(moveRecipient(list, list[2]!.key, -1))).toEqual([
      ['法務部', 1],
      ['鈴木 一郎', 2],
      ['株式会社取引先', 3],
    ]);
    expect(orders(moveRecipient(list, list[0]!.key, -1))).toEqual(orders(list));
    expect(orders(compactOrders(list.filter((r) => r.key !== list[1]!.key)))).toEqual([
      ['法務部', 1],
      ['鈴木 一郎', 2],
    ]);
  });

  it('turns the recipients into a task plan with each signer fields and no role for partners and guests', () => {
    const list = three();
    list[0]!.roleId = 'role-1';
    list[1]!.roleId = 'ignored';
    list[2]!.allowOwn = false;
    const rect = { x1: 10, y1: 20, x2: 160, y2: 70 };
    const plan = taskPlan(list, { [list[1]!.key]: [{ key: 'f', kind: 'signature', page: 1, rect }] });
    expect(plan).toEqual([
      {
        order: 1,
        type: 'approve',
        assignee: { kind: 'group', groupId: 'g1' },
        roleId: 'role-1',
        required: true,
        templateId: null,
        allowSignerPlacements: true,
      },
      {
        order: 2,
        type: 'sign',
        assignee: { kind: 'organization', organizationId: 'o1' },
        roleId: null,
        required: true,
        templateId: null,
        allowSignerPlacements: true,
        signatureType: 'operator',
        twoFactor: 'none',
        fields: [{ kind: 'signature', page: 1, rect, required: true }],
      },
      {
        order: 3,
        type: 'sign',
        assignee: { kind: 'one_time_user', oneTimeUserId: 'u1' },
        roleId: null,
        required: true,
        templateId: null,
        allowSignerPlacements: false,
        signatureType: 'operator',
        twoFactor: 'none',
        fields: [],
      },
    ]);
  });

  it('reads a stored plan back as recipients and their fields', () => {
    const rect = { x1: 10, y1: 20, x2: 160, y2: 70 };
    const task = (order: number, type: 'sign' | 'approve', assignee: WizardTask['attributes']['assignee']) =>
      ({
        type: 'Task',
        id: `t${order}`,
        attributes: {
          order,
          type,
          assignee,
          role: null,
          signatureType: type === 'sign' ? 'operator' : null,
          twoFactor: 'none',
          allowSignerPlacements: order !== 3,
          fields: order === 2 ? [{ id: 'f1', kind: 'seal', page: 1, rect, required: true, label: null }] : [],
        },
      }) as unknown as WizardTask;
    const tasks = [
      task(1, 'approve', { kind: 'group', id: 'g1', name: '法務部' }),
      task(2, 'sign', { kind: 'organization', id: 'o1', name: '株式会社取引先' }),
      task(3, 'sign', { kind: 'one_time_user', id: 'u1', name: '鈴木 一郎', email: 'suzuki@example.com' }),
    ];
    const recipients = recipientsOf(tasks);
    expect(recipients.map((r) => [r.order, r.type, r.assignee, r.allowOwn])).toEqual([
      [1, 'approve', group, true],
      [2, 'sign', partner, true],
      [3, 'sign', guest, false],
    ]);
    const fields = fieldsOf(tasks, recipients);
    expect(Object.keys(fields)).toEqual([recipients[1]!.key]);
    expect(fields[recipients[1]!.key]!.map((f) => [f.kind, f.page, f.rect])).toEqual([['seal', 1, rect]]);
  });

  it('takes the title from the file name without .pdf', () => {
    expect(titleFromFile('業務委託契約書.PDF')).toBe('業務委託契約書');
  });
});
