// The wizard's recipients and fields, and how they become (and come back from) each document's task plan.
// Pure TypeScript: the same plan goes to every document of the draft; fields are per document and per signer.
import type { TaskPlanItem, WizardTask } from './api/draft-flow.ts';

export type TaskType = 'sign' | 'approve' | 'read';
export type TwoFactor = 'none' | 'sms' | 'email';
export type FieldKind = 'signature' | 'seal' | 'handwritten' | 'text';
export const FIELD_KINDS: FieldKind[] = ['signature', 'seal', 'handwritten', 'text'];

export type Assignee =
  | { kind: 'group'; id: string; name: string }
  | { kind: 'organization'; id: string; name: string }
  | { kind: 'one_time_user'; id: string; name: string; email: string };

export interface Recipient {
  key: string;
  order: number;
  type: TaskType;
  assignee: Assignee;
  roleId: string;
  signatureType: string;
  twoFactor: TwoFactor;
  allowOwn: boolean;
}

export interface PdfRect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface WizardField {
  key: string;
  kind: FieldKind;
  page: number;
  rect: PdfRect;
}

/** Fields by document id, then by recipient key. */
export type FieldMap = Record<string, Record<string, WizardField[]>>;

/** The signature type a signer gets unless chosen otherwise (the server's default). */
export const DEFAULT_SIGNATURE_TYPE = 'operator';
/** A one-time user signs only the business-operator ways, with a code by e-mail or none. */
export const GUEST_SIGNATURE_TYPES = ['operator', 'handwritten', 'seal-image', 'long-term'];
export const GUEST_TWO_FACTORS: TwoFactor[] = ['none', 'email'];

let counter = 0;
export const newKey = (prefix: string) => `${prefix}-${(counter += 1)}`;

/** A new recipient after the others: the next order (sequential), signing for a partner or guest, else approving. */
export function newRecipient(assignee: Assignee, recipients: Recipient[]): Recipient {
  const order = Math.max(0, ...recipients.map((r) => r.order)) + 1;
  return {
    key: newKey('recipient'),
    order,
    type: assignee.kind === 'group' ? 'approve' : 'sign',
    assignee,
    roleId: '',
    signatureType: DEFAULT_SIGNATURE_TYPE,
    twoFactor: 'none',
    allowOwn: true,
  };
}

/** Orders renumbered 1, 2, 3 … in their sort order, keeping parallel recipients together. */
export function compactOrders(recipients: Recipient[]): Recipient[] {
  const orders = [...new Set(recipients.map((r) => r.order))].sort((a, b) => a - b);
  return recipients.map((r) => ({ ...r, order: orders.indexOf(r.order) + 1 })).sort((a, b) => a.order - b.order);
}

/** Moves a recipient one place up or down (swapping orders with its neighbour group). */
export function moveRecipient(recipients: Recipient[], key: string, by: -1 | 1): Recipient[] {
  const target = recipients.find((r) => r.key === key);
  if (!target) return recipients;
  const next = target.order + by;
  if (next < 1) return recipients;
  return compactOrders(
    recipients.map((r) =>
      r.key === key ? { ...r, order: next } : r.order === next ? { ...r, order: target.order } : r,
    ),
  );
}

/** The recipient joins the order before it (parallel), or leaves it for an order of its own. */
export function toggleParallel(recipients: Recipient[], key: string): Recipient[] {
  const sorted = compactOrders(recipients);
  const index = sorted.findIndex((r) => r.key === key);
  const target = sorted[index];
  if (!target || index === 0) return sorted;
  const sharing = sorted.some((r) => r.key !== key && r.order === target.order);
  if (sharing) {
    // Out of the shared order: it and everything after it move one on.
    return compactOrders(
      sorted.map((r, i) =>
        i >= index && (r.key === key || r.order > target.order) ? { ...r, order: r.order + 1 } : r,
      ),
    );
  }
  return compactOrders(sorted.map((r) => (r.key === key ? { ...r, order: target.order - 1 } : r)));
}

/** True when the recipient shares its order with one listed before it. */
export const isParallel = (recipients: Recipient[], index: number) =>
  index > 0 && recipients[index - 1]?.order === recipients[index]?.order;

function fieldInputs(fields: WizardField[] | undefined) {
  return (fields ?? []).map((f) => ({ kind: f.kind, page: f.page, rect: f.rect, required: true }));
}

/** The recipients as one document's task plan, with that document's fields for each signer. */
export function taskPlan(recipients: Recipient[], fields: Record<string, WizardField[]> = {}): TaskPlanItem[] {
  return compactOrders(recipients).map((r) => {
    const assignee =
      r.assignee.kind === 'group'
        ? ({ kind: 'group', groupId: r.assignee.id } as const)
        : r.assignee.kind === 'organization'
          ? ({ kind: 'organization', organizationId: r.assignee.id } as const)
          : ({ kind: 'one_time_user', oneTimeUserId: r.assignee.id } as const);
    return {
      order: r.order,
      type: r.type,
      assignee,
      roleId: r.assignee.kind === 'group' && r.roleId ? r.roleId : null,
      required: true,
      templateId: null,
      allowSignerPlacements: r.allowOwn,
      ...(r.type === 'sign'
        ? {
            signatureType: r.signatureType as NonNullable<TaskPlanItem['signatureType']>,
            twoFactor: r.twoFactor,
            fields: fieldInputs(fields[r.key]),
          }
        : {}),
    };
  });
}

const sameAssignee = (task: WizardTask['attributes'], recipient: Recipient) =>
  task.assignee.kind === recipient.assignee.kind && task.assignee.id === recipient.assignee.id;

/** The recipients a stored plan describes (the first document's), for a reopened draft. */
export function recipientsOf(tasks: WizardTask[]): Recipient[] {
  return tasks.map(({ attributes: t }) => {
    const name = t.assignee.name ?? '';
    const assignee: Assignee =
      t.assignee.kind === 'one_time_user'
        ? { kind: 'one_time_user', id: t.assignee.id ?? '', name, email: t.assignee.email ?? '' }
        : { kind: t.assignee.kind, id: t.assignee.id ?? '', name };
    return {
      key: newKey('recipient'),
      order: t.order,
      type: t.type,
      assignee,
      roleId: t.role?.id ?? '',
      signatureType: t.signatureType ?? DEFAULT_SIGNATURE_TYPE,
      twoFactor: t.twoFactor,
      allowOwn: t.allowSignerPlacements,
    };
  });
}

/** The fields of one document's stored plan, by the recipient each task belongs to. */
export function fieldsOf(tasks: WizardTask[], recipients: Recipient[]): Record<string, WizardField[]> {
  const result: Record<string, WizardField[]> = {};
  for (const { attributes: t } of tasks) {
    const recipient = recipients.find((r) => r.order === t.order && r.type === t.type && sameAssignee(t, r));
    if (!recipient || t.fields.length === 0) continue;
    result[recipient.key] = t.fields.map((f) => ({ key: newKey('field'), kind: f.kind, page: f.page, rect: f.rect }));
  }
  return result;
}

/** The signers (sign tasks): the ones fields are placed for. */
export const signersOf = (recipients: Recipient[]) => recipients.filter((r) => r.type === 'sign');

/** The file name without ".pdf", as a title. */
export const titleFromFile = (fileName: string) => fileName.replace(/\.pdf$/i, '').slice(0, 100);
