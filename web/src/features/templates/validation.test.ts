import { describe, expect, it } from 'vitest';
import {
  documentTemplateAttributes,
  newTaskRow,
  serverProblems,
  type TaskRow,
  validateDocumentTemplate,
  validateFlowTemplate,
} from './validation.ts';

const task = (extra: Partial<TaskRow> = {}): TaskRow => ({ ...newTaskRow([], 'g1'), ...extra });

describe('document template form checks', () => {
  it('requires a name and a group on every task', () => {
    const problems = validateDocumentTemplate({
      name: ' ',
      systemLinkId: '',
      documentType: 'contract',
      tasks: [task({ groupId: '' })],
    });
    expect(problems.name?.[0]?.reason).toBe('required');
    expect(problems.tasks).toEqual([{ code: 'VALIDATION_FAILED', reason: 'required', row: 0 }]);
  });

  it('flags a second task with order 1 and a repeated task template ID', () => {
    const problems = validateDocumentTemplate({
      name: 'x',
      systemLinkId: '',
      documentType: 'contract',
      tasks: [task({ templateId: 'A' }), task({ templateId: 'A' })],
    });
    expect(problems.tasks?.map((p) => [p.code, p.row])).toEqual([
      ['TASK_ORDER_ONE_NOT_UNIQUE', undefined],
      ['TASK_TEMPLATE_ID_DUPLICATE', 1],
    ]);
  });

  it('numbers a new task after the last order', () => {
    expect(newTaskRow([task({ order: '1' }), task({ order: '3' })]).order).toBe('4');
  });

  it('sends orders as numbers and blank role and template IDs as null', () => {
    const attributes = documentTemplateAttributes({
      name: ' 契約 ',
      systemLinkId: '',
      documentType: 'invoice',
      tasks: [task()],
    });
    expect(attributes).toEqual({
      name: '契約',
      systemLinkId: null,
      documentType: 'invoice',
      tasks: [
        {
          order: 1,
          type: 'approve',
          roleId: null,
          assignee: { kind: 'group', groupId: 'g1' },
          required: true,
          templateId: null,
        },
      ],
    });
  });
});

describe('business flow template form checks', () => {
  it('flags a repeated document template ID and a row without a template', () => {
    const problems = validateFlowTemplate({
      name: 'flow',
      systemLinkId: '',
      comment: '',
      autoComplete: true,
      documents: [
        { documentTemplateId: 'd1', templateId: 'D' },
        { documentTemplateId: 'd2', templateId: 'D' },
        { documentTemplateId: '', templateId: 'E' },
      ],
    });
    expect(problems.documents?.map((p) => [p.code, p.row])).toEqual([
      ['VALIDATION_FAILED', 2],
      ['DOCUMENT_TEMPLATE_ID_DUPLICATE', 1],
    ]);
  });
});

describe('server problems', () => {
  it('places a task pointer on the tasks field with its row', () => {
    expect(
      serverProblems([
        { code: 'ROLE_CANNOT_PERFORM_TASK', source: { pointer: '/data/attributes/tasks/2/roleId' } },
        { code: 'TEMPLATE_NAME_TAKEN', source: { pointer: '/data/attributes/name' } },
      ]),
    ).toEqual({ tasks: [{ code: 'ROLE_CANNOT_PERFORM_TASK', row: 2 }], name: [{ code: 'TEMPLATE_NAME_TAKEN' }] });
  });
});
