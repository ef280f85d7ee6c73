import type { ErrorCode } from '../../api/errors.ts';
import {
  checkValues,
  serverValueProblems,
  type ValueDefinition,
  type ValueProblem,
  valueInputs,
} from './property-values.ts';

export const NAME_MAX = 100;
export const SYSTEM_LINK_ID_MAX = 100;
export const COMMENT_MAX = 1000;

/** What the business flow form holds; property values as typed, by property id. */
export interface FlowInput {
  source: 'scratch' | 'template';
  templateId: string;
  workspaceId: string;
  name: string;
  systemLinkId: string;
  comment: string;
  autoComplete: boolean;
  values: Record<string, string>;
}

/** A field problem: a local reason (required, too long, choose…) or a code with parameters. */
export interface FlowProblem extends ValueProblem {
  reason?: 'required' | 'tooLong' | 'chooseWorkspace' | 'chooseTemplate';
}
/** Problems by field: `name`, `workspaceId`, … and `property:<id>` for a property value. */
export type FlowProblems = Record<string, FlowProblem[]>;

export const propertyField = (propertyId: string) => `property:${propertyId}`;

export function emptyFlowInput(workspaceId = ''): FlowInput {
  return {
    source: 'scratch',
    templateId: '',
    workspaceId,
    name: '',
    systemLinkId: '',
    comment: '',
    autoComplete: true,
    values: {},
  };
}

const tooLong = (max: number): FlowProblem[] => [{ code: 'VALIDATION_FAILED', reason: 'tooLong', params: { max } }];

/**
 * Checks the form as the server will: workspace (creation) and template chosen, name required (≤ 100), ID for
 * system link ≤ 100, comment ≤ 1000, every property value by the shared validator.
 */
export function validateFlow(
  input: FlowInput,
  definitions: readonly ValueDefinition[],
  options: { creating: boolean; today?: string },
): FlowProblems {
  const problems: FlowProblems = {};
  if (options.creating && !input.workspaceId) {
    problems.workspaceId = [{ code: 'VALIDATION_FAILED', reason: 'chooseWorkspace' }];
  }
  if (options.creating && input.source === 'template' && !input.templateId) {
    problems.templateId = [{ code: 'VALIDATION_FAILED', reason: 'chooseTemplate' }];
  }
  const name = input.name.trim();
  if (!name) problems.name = [{ code: 'VALIDATION_FAILED', reason: 'required' }];
  else if (name.length > NAME_MAX) problems.name = tooLong(NAME_MAX);
  if (input.systemLinkId.trim().length > SYSTEM_LINK_ID_MAX) problems.systemLinkId = tooLong(SYSTEM_LINK_ID_MAX);
  if (input.comment.length > COMMENT_MAX) problems.comment = tooLong(COMMENT_MAX);
  const values = checkValues(definitions, input.values, options.today);
  for (const [id, list] of Object.entries(values)) problems[propertyField(id)] = list;
  return problems;
}

/** The shared attributes of creation and update. */
function commonAttributes(input: FlowInput, definitions: readonly ValueDefinition[]) {
  return {
    name: input.name.trim(),
    systemLinkId: input.systemLinkId.trim() || null,
    comment: input.comment.trim() || null,
    autoComplete: input.autoComplete,
    properties: valueInputs(definitions, input.values),
  };
}

/** createBusinessFlow's attributes; the template's id only when creating from one. */
export function createAttributes(input: FlowInput, definitions: readonly ValueDefinition[]) {
  return {
    ...commonAttributes(input, definitions),
    ...(input.source === 'template' && input.templateId ? { businessFlowTemplateId: input.templateId } : {}),
  };
}

/** updateBusinessFlow's attributes with the lockVersion read. */
export function updateAttributes(input: FlowInput, definitions: readonly ValueDefinition[], lockVersion: number) {
  return { ...commonAttributes(input, definitions), lockVersion };
}

const FIELDS = ['name', 'systemLinkId', 'comment', 'autoComplete', 'businessFlowTemplateId'];

/** A refusal's field problems: attribute pointers by field, property pointers by the property sent at that index. */
export function flowServerProblems(
  errors: { code: ErrorCode; source?: { pointer: string } }[],
  propertyIds: readonly string[],
): FlowProblems {
  const problems: FlowProblems = {};
  for (const error of errors) {
    const field = error.source?.pointer.replace(/^\/data\/attributes\//, '') ?? '';
    if (FIELDS.includes(field)) {
      (problems[field === 'businessFlowTemplateId' ? 'templateId' : field] ??= []).push({ code: error.code });
    }
  }
  for (const [id, list] of Object.entries(serverValueProblems(errors, propertyIds))) {
    problems[propertyField(id)] = list;
  }
  return problems;
}

/** The values of stored property values (a flow's or a template's), by property id. */
export function valuesOf(stored: readonly { propertyId: string; value: string | null }[]): Record<string, string> {
  return Object.fromEntries(stored.map((p) => [p.propertyId, p.value ?? '']));
}
