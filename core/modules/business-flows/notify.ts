/*
 * Mail to the parties of a business flow, one step at a time (task assigned, remanded, cancelled, completed):
 *
 *   notifyFlowParties(deps, trx, { businessFlowId, kind, vars, only?, alsoUserIds? }) -> number of mails queued
 *
 * Recipients: `only: 'all'` (default) is every party of the flow: the active members of the groups and the active
 * users of the partner organizations holding any task of the flow's documents, plus the flow's creator.
 * `only: { taskIds }` is the assignees of those tasks: members of the task's group (holding the task's role when
 * it has one) or the active users of the partner organization. `alsoUserIds` adds users (e.g. a document's
 * creator). Each user gets one mail, in their language, rendered with their own organization's template.
 * When the workspace's mail notification is off nothing is queued; the caller's operation log still records the
 * step itself. A task-assigned step also reaches the one-time users among the tasks' assignees, each with a new
 * personal link (core/modules/one-time-users/work/task-mail.ts).
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { Locale } from '../../http/errors.ts';
import type { MailKind } from '../../mail/messages.ts';
import { mailOneTimeUsers } from '../one-time-users/work/task-mail.ts';
import { withMailToken } from '../signing/mail-link.ts';

export type FlowMailKind = Extract<
  MailKind,
  'task-assigned' | 'document-remanded' | 'document-cancelled' | 'business-flow-completed'
>;

export interface FlowNotification {
  businessFlowId: string;
  kind: FlowMailKind;
  /** Placeholder values; workspaceName, businessFlowName and link are filled in when missing. */
  vars?: Record<string, string>;
  only?: 'all' | { taskIds: string[] };
  alsoUserIds?: (string | null | undefined)[];
}

interface Recipient {
  id: string;
  email: string;
  locale: Locale;
  name: string;
  organization_id: string;
  /** The task of `only.taskIds` the recipient is an assignee of (the first by order), when there is one. */
  task_id?: string;
  task_document_id?: string;
  task_type?: string;
}

/** Task types as the recipient reads them in a mail. */
const TASK_TYPE_LABELS: Record<Locale, Record<string, string>> = {
  ja: { sign: '署名', approve: '承認', read: '閲覧' },
  en: { sign: 'sign', approve: 'approve', read: 'read' },
};

const RECIPIENT_COLUMNS = ['u.id', 'u.email', 'u.locale', 'u.name', 'u.organization_id'];

/** Queues the mail of one flow step to its recipients (see the file comment); returns how many were queued. */
export async function notifyFlowParties(
  deps: CoreDeps,
  trx: Knex.Transaction,
  notification: FlowNotification,
): Promise<number> {
  const flow = await trx('business_flows as f')
    .join('workspaces as w', 'w.id', 'f.workspace_id')
    .join('organizations as o', 'o.id', 'f.organization_id')
    .where('f.id', notification.businessFlowId)
    .first(
      'f.id',
      'f.name',
      'f.organization_id',
      'f.created_by',
      'w.name as workspace_name',
      'w.mail_notification',
      'o.name as organization_name',
    );
  if (!flow || !flow.mail_notification) return 0;
  const only = notification.only ?? 'all';
  const recipients =
    only === 'all' ? await flowParties(trx, flow.id, flow.created_by) : await taskAssignees(trx, only.taskIds);
  const extra = (notification.alsoUserIds ?? []).filter((id): id is string => Boolean(id));
  if (extra.length > 0) recipients.push(...(await activeUsers(trx).whereIn('u.id', extra)));
  const vars: Record<string, string> = {
    organizationName: flow.organization_name as string,
    workspaceName: flow.workspace_name as string,
    businessFlowName: flow.name as string,
    link: `${deps.config.publicUrl}/business-flows/${flow.id}`,
    ...notification.vars,
  };
  const paramsFor = (locale: Locale) => {
    const params: Record<string, string> = { ...vars };
    if (vars.taskType) params.taskType = TASK_TYPE_LABELS[locale][vars.taskType] ?? vars.taskType;
    return params;
  };
  let queued = 0;
  if (notification.kind === 'task-assigned' && only !== 'all') {
    queued += await mailOneTimeUsers(deps, trx, 'one-time-task-assigned', only, paramsFor);
  }
  if (notification.kind === 'business-flow-completed') {
    const target = { businessFlowId: flow.id as string };
    queued += await mailOneTimeUsers(deps, trx, 'one-time-business-flow-completed', target, paramsFor);
  }
  for (const user of dedupe(recipients)) {
    const params: Record<string, string> = { ...paramsFor(user.locale), userName: user.name };
    if (user.task_id && TASK_LINK_KINDS.has(notification.kind) && !notification.vars?.link) {
      // The assignee lands on their task (the signing screen for a sign task), and opening the link from this
      // mail confirms their e-mail arrival (core/modules/signing/mail-link.ts).
      params.link = withMailToken(deps, taskLink(deps, user), user);
    } else if (user.organization_id !== flow.organization_id && params.link === ownerLink(deps, flow.id)) {
      // A partner organization's user reaches the flow through its partner view (/outer-business-flows/{id}).
      params.link = `${deps.config.publicUrl}/outer-business-flows/${flow.id}`;
    }
    const id = await deps.mailer.send(trx, {
      kind: notification.kind,
      to: user.email,
      locale: user.locale,
      params,
      organizationId: user.organization_id,
      userId: user.id,
    });
    if (id) queued += 1;
  }
  return queued;
}

const ownerLink = (deps: CoreDeps, flowId: string) => `${deps.config.publicUrl}/business-flows/${flowId}`;

/** The mails that send an assignee to their own task rather than to the flow. */
const TASK_LINK_KINDS = new Set<FlowMailKind>(['task-assigned', 'document-remanded']);

/** The task's screen: the signing screen for a sign task, the document page open at the task otherwise. */
function taskLink(deps: CoreDeps, user: Recipient): string {
  const document = `${deps.config.publicUrl}/organizations/documents/${user.task_document_id}`;
  return user.task_type === 'sign'
    ? `${document}/tasks/${user.task_id}/sign`
    : `${document}?task=${encodeURIComponent(user.task_id!)}`;
}

function activeUsers(trx: Knex.Transaction) {
  return trx('users as u').where('u.status', 'active').select<Recipient[]>(RECIPIENT_COLUMNS);
}

/** Everyone holding a task of the flow's documents (group members, partner users) and the flow's creator. */
async function flowParties(trx: Knex.Transaction, flowId: string, creatorId: string | null): Promise<Recipient[]> {
  const flowTasks = trx('tasks as t')
    .join('documents as d', 'd.id', 't.document_id')
    .where('d.business_flow_id', flowId);
  return activeUsers(trx).where((w) => {
    w.whereIn(
      'u.id',
      trx('group_members as m').whereIn('m.group_id', flowTasks.clone().select('t.group_id')).select('m.user_id'),
    ).orWhereIn(
      'u.organization_id',
      flowTasks.clone().whereNotNull('t.partner_organization_id').select('t.partner_organization_id'),
    );
    if (creatorId) w.orWhere('u.id', creatorId);
  });
}

/**
 * The assignees of the given tasks: members of a task's group who hold its role (when it has one), or the active
 * users of a partner organization (one-time users get their own mail: mailOneTimeUsers). Each comes with the first
 * of those tasks (by order) they are an assignee of, so their mail can link to it.
 */
async function taskAssignees(trx: Knex.Transaction, taskIds: string[]): Promise<Recipient[]> {
  if (taskIds.length === 0) return [];
  return trx('users as u')
    .crossJoin(trx.raw('tasks as t'))
    .whereIn('t.id', taskIds)
    .where((a) =>
      a
        .where((g) =>
          g
            .where('t.assignee_kind', 'group')
            .whereExists(
              trx('group_members as m')
                .whereRaw('m.group_id = t.group_id')
                .whereRaw('m.user_id = u.id')
                .select(trx.raw('1')),
            )
            .where((r) =>
              r
                .whereNull('t.role_id')
                .orWhereExists(
                  trx('user_roles as ur')
                    .whereRaw('ur.role_id = t.role_id')
                    .whereRaw('ur.user_id = u.id')
                    .select(trx.raw('1')),
                ),
            ),
        )
        .orWhere((o) =>
          o.where('t.assignee_kind', 'organization').whereRaw('t.partner_organization_id = u.organization_id'),
        ),
    )
    .where('u.status', 'active')
    .orderBy([{ column: 't.task_order' }, { column: 't.created_at' }, { column: 't.id' }])
    .select<Recipient[]>([
      ...RECIPIENT_COLUMNS,
      't.id as task_id',
      't.document_id as task_document_id',
      't.type as task_type',
    ]);
}

function dedupe(users: Recipient[]): Recipient[] {
  const seen = new Map<string, Recipient>();
  for (const user of users) if (!seen.has(user.id)) seen.set(user.id, user);
  return [...seen.values()];
}
