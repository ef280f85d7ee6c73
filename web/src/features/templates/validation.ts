import type { components } from '../../../../core/contract/api.gen.ts';
import type { DocumentType } from '../../api/document-types.ts';
import type { ErrorCode } from '../../api/errors.ts';

export type TaskType = components['schemas']['TaskType'];
/** Where the AI-OCR option reads a document-scope property (drawn on the sample PDF; features/ai-ocr edits them). */
export type ReadingPosition = components['schemas']['ReadingPosition'];

export const TASK_TYPES: TaskType[] = ['approve', 'read', 'sign'];
export const NAME_MAX = 100;
export const REF_ID_MAX = 100;
/** The most tasks a document (and so a template) may have, as the server counts them. */
export const MAX_TASKS = 30;

/** One row of the task list editor (the order as typed). */
export interface TaskRow {
  order: string;
  type: TaskType;
  groupId: string;
  roleId: string;
  required: boolean;
  templateId: string;
}

export interface DocumentTemplateInput {
  name: string;
  systemLinkId: string;
  documentType: DocumentType;
  tasks: TaskRow[];
  readingPositions: ReadingPosition[];
}

export interface DocumentRow {
  documentTemplateId: string;
  templateId: string;
}

export interface FlowTemplateInput {
  name: string;
  systemLinkId: string;
  comment: string;
  autoComplete: boolean;
  documents: DocumentRow[];
}

/** A problem of a field; `row` (0-based) says which row of a list it concerns. */
export interface Problem {
  code: ErrorCode;
  reason?: 'required' | 'tooLong' | 'order' | 'orderOne' | 'duplicate' | 'positionProperty';
  params?: Record<string, number>;
  row?: number;
}
export type Field =
  'name' | 'systemLinkId' | 'documentType' | 'comment' | 'tasks' | 'properties' | 'documents' | 'readingPositions';
export type Problems = Partial<Record<Field, Problem[]>>;

const invalid = (reason: Problem['reason'], extra: Partial<Problem> = {}): Problem => ({
  code: 'VALIDATION_FAILED',
  reason,
  ...extra,
});

function checkNames(input: { name: string; systemLinkId: string }, problems: Problems) {
  const name = input.name.trim();
  if (name.length === 0) problems.name = [invalid('required')];
  else if ([...name].length > NAME_MAX) problems.name = [invalid('tooLong', { params: { max: NAME_MAX } })];
  if (input.systemLinkId.trim().length > REF_ID_MAX) {
    problems.systemLinkId = [invalid('tooLong', { params: { max: REF_ID_MAX } })];
  }
}

/** Row ids that repeat an earlier row's (blank ones never clash). */
function duplicates(ids: string[]): number[] {
  const seen = new Set<string>();
  return ids.flatMap((raw, row) => {
    const id = raw.trim();
    if (!id) return [];
    if (seen.has(id)) return [row];
    seen.add(id);
    return [];
  });
}

/**
 * What the browser can tell before sending: name, order numbers, a group on every task, one task with order 1 and
 * unique task template IDs. The server checks the rest of the task rules (roles, own group, read tasks last).
 */
export function validateDocumentTemplate(input: DocumentTemplateInput): Problems {
  const problems: Problems = {};
  checkNames(input, problems);
  const tasks: Problem[] = [];
  input.tasks.forEach((task, row) => {
    const order = Number(task.order);
    if (!/^\d+$/.test(task.order.trim()) || order < 1 || order > MAX_TASKS) {
      tasks.push(invalid('order', { row, params: { max: MAX_TASKS } }));
    }
    if (!task.groupId) tasks.push(invalid('required', { row }));
    if (task.templateId.trim().length > REF_ID_MAX)
      tasks.push(invalid('tooLong', { row, params: { max: REF_ID_MAX } }));
  });
  if (input.tasks.filter((t) => t.order.trim() === '1').length > 1) {
    tasks.push({ code: 'TASK_ORDER_ONE_NOT_UNIQUE' });
  }
  for (const row of duplicates(input.tasks.map((t) => t.templateId))) {
    tasks.push({ code: 'TASK_TEMPLATE_ID_DUPLICATE', row });
  }
  if (tasks.length > 0) problems.tasks = tasks;
  const positions = readingPositionProblems(input.readingPositions);
  if (positions.length > 0) problems.readingPositions = positions;
  return problems;
}

/** Every reading position names a property, and a property is read at one position only. */
function readingPositionProblems(positions: ReadingPosition[]): Problem[] {
  const problems: Problem[] = positions.flatMap((position, row) =>
    position.propertyId ? [] : [invalid('positionProperty', { row })],
  );
  for (const row of duplicates(positions.map((p) => p.propertyId))) {
    problems.push({ code: 'READING_POSITION_DUPLICATE', row });
  }
  return problems;
}

export function validateFlowTemplate(input: FlowTemplateInput): Problems {
  const problems: Problems = {};
  checkNames(input, problems);
  if (input.comment.length > 1000) problems.comment = [invalid('tooLong', { params: { max: 1000 } })];
  const documents: Problem[] = [];
  input.documents.forEach((document, row) => {
    if (!document.documentTemplateId || !document.templateId.trim()) documents.push(invalid('required', { row }));
    else if (document.templateId.trim().length > REF_ID_MAX) {
      documents.push(invalid('tooLong', { row, params: { max: REF_ID_MAX } }));
    }
  });
  for (const row of duplicates(input.documents.map((d) => d.templateId))) {
    documents.push({ code: 'DOCUMENT_TEMPLATE_ID_DUPLICATE', row });
  }
  if (documents.length > 0) problems.documents = documents;
  return problems;
}

/** The request attributes of a document template form: trimmed, blanks as null. */
export function documentTemplateAttributes(input: DocumentTemplateInput) {
  return {
    name: input.name.trim(),
    systemLinkId: input.systemLinkId.trim() || null,
    documentType: input.documentType,
    tasks: input.tasks.map((task) => ({
      order: Number(task.order),
      type: task.type,
      roleId: task.roleId || null,
      assignee: { kind: 'group' as const, groupId: task.groupId },
      required: task.required,
      templateId: task.templateId.trim() || null,
    })),
    readingPositions: input.readingPositions.map((position) => ({
      ...position,
      hint: position.hint?.trim() || null,
    })),
  };
}

export function flowTemplateAttributes(input: FlowTemplateInput) {
  return {
    name: input.name.trim(),
    systemLinkId: input.systemLinkId.trim() || null,
    comment: input.comment.trim() || null,
    autoComplete: input.autoComplete,
    documents: input.documents.map((d) => ({
      documentTemplateId: d.documentTemplateId,
      templateId: d.templateId.trim(),
    })),
  };
}

const FIELDS: Field[] = [
  'name',
  'systemLinkId',
  'documentType',
  'comment',
  'tasks',
  'properties',
  'documents',
  'readingPositions',
];

/** A refusal's field errors by field; `/data/attributes/tasks/2/roleId` belongs to tasks, row 2. */
export function serverProblems(errors: { code: ErrorCode; source?: { pointer: string } }[]): Problems {
  const problems: Problems = {};
  for (const error of errors) {
    const [field, index] = (error.source?.pointer ?? '').replace(/^\/data\/attributes\//, '').split('/');
    if (!FIELDS.includes(field as Field)) continue;
    const row = index !== undefined && /^\d+$/.test(index) ? Number(index) : undefined;
    (problems[field as Field] ??= []).push({ code: error.code, ...(row !== undefined ? { row } : {}) });
  }
  return problems;
}

/** The next task row: after the last order, of the first group, required. */
export function newTaskRow(tasks: TaskRow[], groupId = ''): TaskRow {
  const last = Math.max(0, ...tasks.map((t) => Number(t.order) || 0));
  return { order: String(last + 1), type: 'approve', groupId, roleId: '', required: true, templateId: '' };
}
