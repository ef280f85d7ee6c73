import { describe, expect, it } from 'vitest';
import {
  documentTemplateAttributes,
  newTaskRow,
  serverProblems,
  type TaskRow,
  validateDocumentTemplate,
  validateFlowTemplate,
} from './validation.ts';

const PROPERTY = '00000000-0000-4000-8000-00000000000a';
const position = (propertyId: string) => ({ propertyId, page: 1, x: 10, y: 20, width: 100, height: 14 });
const task = (extra: Partial<TaskRow> = {}): TaskRow => ({ ...newTaskRow([], 'g1'), ...extra });

describe('document template form checks', () => {
  it('requires a name and a group on every task', () => {
    const problems = validateDocumentTemplate({
      name: ' ',
      systemLinkId: '',
      documentType: 'contract',
      tasks: [task({ groupId: '' })],
      readingPositions: [],
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
      readingPositions: [],
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
      readingPositions: [{ ...position(PROPERTY), hint: '  ' }],
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
      readingPositions: [{ ...position(PROPERTY), hint: null }],
    });
  });

  it('asks for the property of each reading position and reads a property at one position only', () => {
    const problems = validateDocumentTemplate({
      name: 'x',
      systemLinkId: '',
      documentType: 'contract',
      tasks: [],
      readingPositions: [position(PROPERTY), position(''), position(PROPERTY)],
    });
    expect(problems.readingPositions).toEqual([
      { code: 'VALIDATION_FAILED', reason: 'positionProperty', row: 1 },
      { code: 'READING_POSITION_DUPLICATE', row: 2 },
    ]);
    expect(
      serverProblems([
        { code: 'READING_POSITION_DUPLICATE', source: { pointer: '/data/attributes/readingPositions/1/propertyId' } },
      ]),
    ).toEqual({ readingPositions: [{ code: 'READING_POSITION_DUPLICATE', row: 1 }] });
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
