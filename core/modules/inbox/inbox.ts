/*
 * The inbox (the home screen): in one request, what waits for the caller and what they wait for.
 *
 * - waitingForMe: the tasks the caller can execute now, oldest first — the very rule of `GET /tasks/mine`
 *   (tasks/my-tasks.ts executableTasks), so both lists always agree.
 * - waitingForOthers: business flows in progress that the caller created or may edit (an editable participant of
 *   the workspace, or an administrator of its organization), holding an active task the caller cannot execute;
 *   the flow sent longest ago first, with its oldest such task (who it waits on, since when).
 * - drafts: the caller's own draft flows in their organization's workspaces they may still edit, last edited first.
 * - completedRecently: flows completed in the last 30 days that the caller may see and either created or had a
 *   task in, newest first.
 * - remandedToMe: remanded documents of flows the caller created (or documents they uploaded), oldest remand first,
 *   with the reason and who remanded.
 * - warnings: the caller's e-certificate expiring within 30 days or expired, the e-mail address not confirmed, and
 *   documents of flows they can see stopped by the malware scan (malicious or unscannable latest version).
 *
 * Every count is exact up to 100 and then `capped` (the web shows "100+", as a badge would): counting stops at the
 * 101st row, so a large organization costs no more than a small one — each row counted is a few index lookups, and
 * the home screen is every user's most frequent request. Every list holds at most 10 items.
 */
import type { Knex } from 'knex';
import type { Principal } from '../../http/context.ts';
import { BRANCH_ID, LITERAL_LIMIT, unionOfBranches } from '../../http/pagination.ts';
import { templated, withGenericPlans } from '../../db/prepared-client.ts';
import { emailConfirmed } from '../signing/email-confirmation.ts';
import { assigneeOf } from '../tasks/resources.ts';
import { executableTasks } from '../tasks/my-tasks.ts';
import { assignedBranches, whereAssignedTo } from '../tasks/model.ts';
import { callerParticipants, whereFlowVisible } from '../workspaces/access.ts';

export const INBOX_COUNT_CAP = 100;
export const INBOX_LIST_SIZE = 10;
const RECENT_DAYS = 30;
const EXPIRING_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface InboxCount {
  count: number;
  capped: boolean;
}

export interface InboxItem {
  businessFlow: { id: string; name: string };
  document: { id: string; name: string } | null;
  task: { id: string; type: 'sign' | 'approve' | 'read' } | null;
  since: string;
  counterparty: string | null;
  reason?: string | null;
  blockedByScan?: boolean;
}

export type InboxWarning =
  | { code: 'E_CERTIFICATE_EXPIRING'; params: { expiresAt: string; days: number } }
  | { code: 'E_CERTIFICATE_EXPIRED'; params: { expiresAt: string } }
  | { code: 'EMAIL_NOT_CONFIRMED'; params: { email: string } }
  | { code: 'DOCUMENTS_BLOCKED_BY_SCAN'; params: InboxCount };

const iso = (value: Date | string) => new Date(value).toISOString();

/** A section of the inbox: the rows it counts and the query listing its first items (ITEMS reads them). */
interface Section {
  scope: Knex.QueryBuilder;
  list: Knex.QueryBuilder;
}

/** `(SELECT count(*) FROM (scope LIMIT cap + 1))`: the count stops at the cap. */
function cappedCountSql(knex: Knex, scope: Knex.QueryBuilder) {
  const limited = scope
    .clone()
    .clearSelect()
    .clearOrder()
    .select(knex.raw('1'))
    .limit(INBOX_COUNT_CAP + 1, LITERAL_LIMIT);
  return knex.raw('(SELECT count(*) FROM (?) AS c)', [limited]);
}

const cappedOf = (n: string | number): InboxCount => ({
  count: Math.min(Number(n), INBOX_COUNT_CAP),
  capped: Number(n) > INBOX_COUNT_CAP,
});

/** `(SELECT json_agg(...) FROM (list))`: the listed rows as one JSON array, in the list's order. */
const listSql = (knex: Knex, list: Knex.QueryBuilder) =>
  knex.raw(`(SELECT coalesce(json_agg(l), '[]'::json) FROM (?) AS l)`, [list]);

/** Latest version's scan verdict of `d` (a scalar subquery, evaluated only for the listed rows). */
const latestScan = (knex: Knex) =>
  knex.raw(
    '(SELECT v.scan_status FROM document_versions v WHERE v.document_id = d.id ORDER BY v.version DESC LIMIT 1) AS scan_status',
  );

/** The name the other side goes by: the owner organization when it is not the caller's, else the flow's creator. */
const senderName = (knex: Knex, principal: Principal) =>
  knex.raw(
    `CASE WHEN f.organization_id <> ? THEN (SELECT o.name FROM organizations o WHERE o.id = f.organization_id)
          ELSE (SELECT u.name FROM users u WHERE u.id = f.created_by) END AS counterparty`,
    [principal.organizationId],
  );

/**
 * The caller's executable tasks read per assignment branch (tasks/model.ts assignedBranches: one index walk per group
 * of theirs, one for their organization as partner), each branch's first `limit` ids in `order` (or unordered), as
 * one union: the OR of executableTasks would sort or join every live task first.
 */
function executableIds(knex: Knex, principal: Principal, limit: number, ordered: boolean) {
  const first = () => {
    const ids = executableTasks(knex, principal).select(`t.id as ${BRANCH_ID}`).limit(limit, LITERAL_LIMIT);
    return ordered ? ids.orderBy([{ column: 't.updated_at' }, { column: 't.id' }]) : ids;
  };
  return knex.queryBuilder().from(unionOfBranches(knex, assignedBranches(knex, principal), first));
}

function waitingForMe(knex: Knex, principal: Principal): Section {
  return {
    scope: executableIds(knex, principal, INBOX_COUNT_CAP + 1, false),
    list: knex('tasks as t')
      // = ANY(ARRAY(…)): the ten oldest ids first, then their rows by key.
      .whereRaw('t.id = ANY(ARRAY(?))', [executableIds(knex, principal, INBOX_LIST_SIZE, true).select(BRANCH_ID)])
      .join('documents as d', 'd.id', 't.document_id')
      .join('business_flows as f', 'f.id', 'd.business_flow_id')
      .select(
        't.id',
        't.type',
        't.updated_at',
        'd.id as document_id',
        'd.name as document_name',
        'f.id as flow_id',
        'f.name as flow_name',
        senderName(knex, principal),
        latestScan(knex),
      )
      .orderBy([{ column: 't.updated_at' }, { column: 't.id' }])
      .limit(INBOX_LIST_SIZE, LITERAL_LIMIT),
  };
}

/**
 * Active tasks of `f` (in its documents' current order) that the caller cannot execute: the negation of
 * whereAssignedTo, inline (its subqueries are uncorrelated, so PostgreSQL hashes them once).
 */
function othersActiveTasks(knex: Knex, principal: Principal) {
  return knex('tasks as ot')
    .join('documents as od', (j) => j.on('od.id', 'ot.document_id').andOn('od.current_order', 'ot.task_order'))
    .whereRaw(`od.business_flow_id = f.id AND od.status IN ('in_progress', 'remanded') AND ot.status = 'active'`)
    .whereNot(function (this: Knex.QueryBuilder) {
      whereAssignedTo(knex, this, principal, 'ot');
    });
}

/** Flows `f` the caller waits on others for: created by them, in a workspace they may edit, or (admins) their own. */
function whereOwnFlow(knex: Knex, principal: Principal, w: Knex.QueryBuilder) {
  w.where('f.created_by', principal.userId).orWhereIn(
    'f.workspace_id',
    callerParticipants(knex, principal).whereRaw('p.is_editable').select('p.workspace_id'),
  );
  if (principal.isAdmin) w.orWhere('f.organization_id', principal.organizationId);
}

/**
 * The organizations whose flows can concern the caller, read from indexes alone, as `(SELECT …)` of one uuid column:
 * their own, those of the given workspaces (a subquery of ids), and those of the flows in progress they created — a
 * skip scan of business_flows_creator_org, one index probe per organization however many flows. The inbox's sections
 * that start from a partial index of rare rows (remanded documents, waiting tasks) read that index for these
 * organizations only, never for the whole database.
 */
function callerOrganizations(knex: Knex, principal: Principal, workspaceIds: Knex.QueryBuilder) {
  return knex.raw(
    `(WITH RECURSIVE created AS (
        (SELECT b.organization_id FROM business_flows b WHERE b.created_by = :me AND b.status = 'in_progress'
          ORDER BY b.organization_id LIMIT 1)
        UNION ALL
        SELECT (SELECT b.organization_id FROM business_flows b
                 WHERE b.created_by = :me AND b.status = 'in_progress' AND b.organization_id > c.organization_id
                 ORDER BY b.organization_id LIMIT 1)
          FROM created c WHERE c.organization_id IS NOT NULL
      )
      SELECT organization_id FROM created WHERE organization_id IS NOT NULL
      UNION SELECT CAST(:org AS uuid)
      UNION SELECT w.organization_id FROM workspaces w WHERE w.id IN :workspaces)`,
    { me: principal.userId, org: principal.organizationId, workspaces: workspaceIds },
  );
}

/** Live task rows read for the first try of the "waiting for others" count (see waitingForOthersCount). */
const WAITING_SAMPLE = 2 * (INBOX_COUNT_CAP + 1);

/**
 * "Waiting for others" counted from the live tasks the caller cannot execute rather than from every flow in
 * progress: the negation of whereAssignedTo as three disjoint branches, each read from its own partial index —
 * (1) group tasks of the other groups of the organizations the caller's flows belong to (a task's group belongs to
 * its owner organization), (2) tasks of the caller's groups restricted to a role they lack, (3) tasks of a partner
 * organization other than the caller's or of a guest — then each task's flow looked up (a scalar subquery per task,
 * so the lookups stop with the rows read). The organizations: callerOrganizations, with the workspaces they may edit.
 *
 * It reads at most WAITING_SAMPLE such rows and counts their distinct flows: when it read fewer rows, every row was
 * seen and the count is exact; otherwise (more waiting tasks than that) the flows it met are a lower bound, answered
 * as "N+" (`capped`): counting every distinct flow exactly took half a second at 100,000 flows.
 */
function waitingForOthersCount(knex: Knex, principal: Principal) {
  const bindings = {
    me: principal.userId,
    org: principal.organizationId,
    orgs: callerOrganizations(
      knex,
      principal,
      callerParticipants(knex, principal).whereRaw('p.is_editable').select('p.workspace_id'),
    ),
    scope: knex('business_flows as f')
      .whereRaw(`f.status = 'in_progress' AND f.id = od.business_flow_id`)
      .where((w) => whereOwnFlow(knex, principal, w))
      .select('f.id'),
  };
  const waiting = `
    WITH orgs AS (SELECT id FROM :orgs AS o(id)), others AS (
      SELECT t.document_id, t.task_order FROM groups g
        JOIN tasks t ON t.group_id = g.id AND t.status = 'active' AND t.assignee_kind = 'group'
       WHERE g.organization_id IN (SELECT id FROM orgs)
         AND g.id NOT IN (SELECT gm.group_id FROM group_members gm WHERE gm.user_id = :me)
      UNION ALL
      SELECT t.document_id, t.task_order FROM tasks t
       WHERE t.status = 'active' AND t.role_id IS NOT NULL AND t.assignee_kind = 'group'
         AND t.group_id IN (SELECT gm.group_id FROM group_members gm WHERE gm.user_id = :me)
         AND t.role_id NOT IN (SELECT ur.role_id FROM user_roles ur WHERE ur.user_id = :me)
      UNION ALL
      SELECT t.document_id, t.task_order FROM tasks t
       WHERE t.status = 'active' AND t.assignee_kind <> 'group' AND t.organization_id IN (SELECT id FROM orgs)
         AND NOT (t.assignee_kind = 'organization' AND t.partner_organization_id = :org)
    ), waiting AS (
      SELECT (SELECT od.business_flow_id FROM documents od
               WHERE od.id = ot.document_id AND od.current_order = ot.task_order
                 AND od.status IN ('in_progress', 'remanded') AND EXISTS :scope) AS flow_id
        FROM others ot OFFSET 0
    )`;
  return knex.raw(
    `(${waiting} SELECT json_build_object('flows', count(DISTINCT flow_id), 'rows', count(*))
       FROM (SELECT flow_id FROM waiting WHERE flow_id IS NOT NULL LIMIT ${WAITING_SAMPLE}) AS s)`,
    bindings,
  );
}

/** The "waiting for others" count from waitingForOthersCount's sample. */
function waitingForOthersOf(sample: { flows: number; rows: number }): InboxCount {
  if (sample.rows < WAITING_SAMPLE) return cappedOf(sample.flows);
  return { count: Math.min(sample.flows, INBOX_COUNT_CAP), capped: true };
}

function waitingForOthers(knex: Knex, principal: Principal): Section {
  const scope = knex('business_flows as f')
    .whereRaw(`f.status = 'in_progress'`)
    .where((w) => whereOwnFlow(knex, principal, w))
    .whereExists(othersActiveTasks(knex, principal).select(knex.raw('1')));
  const oldest = othersActiveTasks(knex, principal)
    .leftJoin('groups as g', 'g.id', 'ot.group_id')
    .leftJoin('organizations as o', 'o.id', 'ot.partner_organization_id')
    .leftJoin('one_time_users as u', 'u.id', 'ot.one_time_user_id')
    .select(
      'ot.id as task_id',
      'ot.type as task_type',
      'ot.updated_at as task_since',
      'ot.assignee_kind',
      'ot.group_id',
      'ot.partner_organization_id',
      'ot.one_time_user_id',
      'g.name as group_name',
      'o.name as partner_name',
      'u.name as one_time_user_name',
      'u.email as one_time_user_email',
      'od.id as document_id',
      'od.name as document_name',
    )
    .orderBy([{ column: 'ot.updated_at' }, { column: 'ot.id' }])
    .limit(1, LITERAL_LIMIT);
  // The flows sent longest ago first; the oldest waiting task is looked up for the listed ten only.
  const first = scope
    .clone()
    .select('f.id', 'f.name', 'f.created_at')
    .orderBy([{ column: 'f.created_at' }, { column: 'f.id' }])
    .limit(INBOX_LIST_SIZE, LITERAL_LIMIT);
  return {
    scope,
    list: knex
      .select('f.id as flow_id', 'f.name as flow_name', 'w.*')
      .from(first.as('f'))
      .joinRaw('CROSS JOIN LATERAL (?) AS w', [knex.raw('?', [oldest])])
      .orderBy([{ column: 'f.created_at' }, { column: 'f.id' }]),
  };
}

/** Ids of the workspaces the caller may edit in (an editable participant; administrators edit all of theirs). */
function editableWorkspaceIds(knex: Knex, principal: Principal) {
  const viaParticipants = callerParticipants(knex, principal).whereRaw('p.is_editable').select('p.workspace_id');
  if (!principal.isAdmin) return viaParticipants;
  return knex('workspaces as w')
    .where('w.organization_id', principal.organizationId)
    .select('w.id as workspace_id')
    .union(viaParticipants);
}

function drafts(knex: Knex, principal: Principal): Section {
  const scope = knex('business_flows as f')
    .whereRaw(`f.status = 'draft'`)
    .where({ 'f.created_by': principal.userId, 'f.organization_id': principal.organizationId })
    .whereIn('f.workspace_id', editableWorkspaceIds(knex, principal));
  const firstDocument = (column: string) =>
    knex.raw(
      `(SELECT d.${column} FROM documents d WHERE d.business_flow_id = f.id ORDER BY d.created_at, d.id LIMIT 1) AS document_${column}`,
    );
  return {
    scope,
    list: scope
      .clone()
      .select('f.id', 'f.name', 'f.updated_at', firstDocument('id'), firstDocument('name'))
      .orderBy([
        { column: 'f.updated_at', order: 'desc' },
        { column: 'f.id', order: 'desc' },
      ])
      .limit(INBOX_LIST_SIZE, LITERAL_LIMIT),
  };
}

function completedRecently(knex: Knex, principal: Principal, since: Date | string): Section {
  const myTaskInFlow = whereAssignedTo(
    knex,
    knex('tasks as ct').join('documents as cd', 'cd.id', 'ct.document_id').whereRaw('cd.business_flow_id = f.id'),
    principal,
    'ct',
  ).select(knex.raw('1'));
  const scope = whereFlowVisible(
    knex,
    knex('business_flows as f').whereRaw(`f.status = 'complete'`).where('f.completed_at', '>=', since),
    principal,
  ).where((w) => w.where('f.created_by', principal.userId).orWhereExists(myTaskInFlow));
  return {
    scope,
    list: scope
      .clone()
      .select('f.id', 'f.name', 'f.completed_at', senderName(knex, principal))
      .orderBy([
        { column: 'f.completed_at', order: 'desc' },
        { column: 'f.id', order: 'desc' },
      ])
      .limit(INBOX_LIST_SIZE, LITERAL_LIMIT),
  };
}

/**
 * Remanded documents of flows the caller created or documents they uploaded, read from documents_remanded_org for
 * the organizations that can hold them (callerOrganizations with every workspace they take part in: a document is
 * uploaded into a workspace its uploader takes part in, and a remanded document's flow is in progress).
 */
function remandedToMe(knex: Knex, principal: Principal): Section {
  const orgs = callerOrganizations(knex, principal, callerParticipants(knex, principal).select('p.workspace_id'));
  const scope = knex('documents as d')
    .join('business_flows as f', 'f.id', 'd.business_flow_id')
    .whereRaw(`d.status = 'remanded' AND f.status <> 'cancelled'`)
    .whereRaw('d.organization_id IN ?', [orgs])
    .where((w) => w.where('f.created_by', principal.userId).orWhere('d.created_by', principal.userId));
  return {
    scope,
    list: scope
      .clone()
      .joinRaw(
        `LEFT JOIN LATERAL (
           SELECT e.reason, e.created_at AS remanded_at,
                  coalesce((SELECT u.name FROM users u WHERE u.id = e.actor_user_id),
                           (SELECT o.name FROM organizations o WHERE o.id = e.actor_organization_id)) AS remanded_by
             FROM document_events e
            WHERE e.document_id = d.id AND e.kind = 'remanded'
            ORDER BY e.created_at DESC LIMIT 1) AS e ON true`,
      )
      .select(
        'd.id as document_id',
        'd.name as document_name',
        'd.updated_at',
        'f.id as flow_id',
        'f.name as flow_name',
        'e.reason',
        'e.remanded_at',
        'e.remanded_by',
      )
      .orderByRaw('coalesce(e.remanded_at, d.updated_at), d.id')
      .limit(INBOX_LIST_SIZE, LITERAL_LIMIT),
  };
}

/**
 * Documents of flows the caller can see whose latest version the malware scan stopped (malicious or unscannable): the
 * stopped versions (a partial index: rare), each one's flow checked by key in a LATERAL subquery (LIMIT 1 keeps it per
 * row: joined, PostgreSQL hashed every visible flow to meet a few hundred versions).
 */
function blockedByScan(knex: Knex, principal: Principal) {
  const visibleFlow = whereFlowVisible(
    knex,
    knex('business_flows as f')
      .whereRaw(`f.id = d.business_flow_id AND f.status <> 'cancelled'`)
      // A draft is its creator's alone until it is sent.
      .where((w) => w.whereRaw(`f.status <> 'draft'`).orWhere('f.created_by', principal.userId)),
    principal,
  )
    .select(knex.raw('1'))
    .limit(1, LITERAL_LIMIT);
  return knex('document_versions as v')
    .join('documents as d', 'd.id', 'v.document_id')
    .joinRaw('CROSS JOIN LATERAL ? AS visible', [knex.raw('?', [visibleFlow])])
    .whereRaw(`v.scan_status IN ('malicious', 'failed')`)
    .whereNotExists(
      knex('document_versions as nv')
        .whereRaw('nv.document_id = v.document_id AND nv.version > v.version')
        .select(knex.raw('1')),
    )
    .whereRaw(`d.status IN ('draft', 'in_progress', 'remanded')`);
}

const SECTIONS = ['waitingForMe', 'waitingForOthers', 'drafts', 'completedRecently', 'remandedToMe'] as const;
type SectionName = (typeof SECTIONS)[number];

/** How a listed row of each section reads. */
const ITEMS: Record<SectionName, (row: Record<string, any>) => InboxItem> = {
  waitingForMe: (row) => ({
    businessFlow: { id: row.flow_id, name: row.flow_name },
    document: { id: row.document_id, name: row.document_name },
    task: { id: row.id, type: row.type },
    since: iso(row.updated_at),
    counterparty: row.counterparty ?? null,
    blockedByScan: (row.scan_status ?? 'pending') !== 'clean',
  }),
  waitingForOthers: (row) => {
    const assignee = assigneeOf(row);
    return {
      businessFlow: { id: row.flow_id, name: row.flow_name },
      document: { id: row.document_id, name: row.document_name },
      task: { id: row.task_id, type: row.task_type },
      since: iso(row.task_since),
      counterparty: assignee.name ?? ('email' in assignee ? (assignee.email ?? null) : null),
    };
  },
  drafts: (row) => ({
    businessFlow: { id: row.id, name: row.name },
    document: row.document_id ? { id: row.document_id, name: row.document_name } : null,
    task: null,
    since: iso(row.updated_at),
    counterparty: null,
  }),
  completedRecently: (row) => ({
    businessFlow: { id: row.id, name: row.name },
    document: null,
    task: null,
    since: iso(row.completed_at),
    counterparty: row.counterparty ?? null,
  }),
  remandedToMe: (row) => ({
    businessFlow: { id: row.flow_id, name: row.flow_name },
    document: { id: row.document_id, name: row.document_name },
    task: null,
    since: iso(row.remanded_at ?? row.updated_at),
    counterparty: row.remanded_by ?? null,
    reason: row.reason ?? null,
  }),
};

/**
 * The inbox's one statement: every count and list as a column. Its SQL depends only on whether the caller is an
 * administrator (templated): the caller's ids and the first instant of the recent days are its only values.
 */
function inboxStatement(knex: Knex, principal: Principal, since: Date | string) {
  const sections: Record<SectionName, Section> = {
    waitingForMe: waitingForMe(knex, principal),
    waitingForOthers: waitingForOthers(knex, principal),
    drafts: drafts(knex, principal),
    completedRecently: completedRecently(knex, principal, since),
    remandedToMe: remandedToMe(knex, principal),
  };
  const columns: Record<string, Knex.Raw> = {
    email: knex.raw('(SELECT u.email FROM users u WHERE u.id = ?)', [principal.userId]),
    email_confirmed_address: knex.raw('(SELECT u.email_confirmed_address FROM users u WHERE u.id = ?)', [
      principal.userId,
    ]),
    certificate_not_after: knex.raw('(SELECT c.not_after FROM e_certificates c WHERE c.user_id = ?)', [
      principal.userId,
    ]),
    blocked: cappedCountSql(knex, blockedByScan(knex, principal)),
  };
  for (const name of SECTIONS) {
    columns[`${name}_count`] =
      name === 'waitingForOthers' ? waitingForOthersCount(knex, principal) : cappedCountSql(knex, sections[name].scope);
    columns[`${name}_items`] = listSql(knex, sections[name].list);
  }
  return knex.select(columns);
}

/** The whole inbox of the caller. */
export async function inboxOf(knex: Knex, principal: Principal, now: Date) {
  const values = {
    userId: principal.userId,
    organizationId: principal.organizationId,
    since: new Date(now.getTime() - RECENT_DAYS * DAY_MS),
  };
  const statement = templated(knex, `inbox:${principal.isAdmin ? 'admin' : 'member'}`, values, (v) =>
    inboxStatement(knex, { ...principal, userId: v.userId, organizationId: v.organizationId }, v.since),
  ).options({ prepare: true });
  // Planned once per connection (withGenericPlans): its text holds every constant of the code.
  const [result] = (await withGenericPlans(knex, [statement])) as { rows: Record<string, any>[] }[];
  const [row] = result!.rows;
  row!.waitingForOthers_count = waitingForOthersOf(row!.waitingForOthers_count);
  const attributes = Object.fromEntries(
    SECTIONS.map((name) => [
      name,
      {
        ...(name === 'waitingForOthers' ? row!.waitingForOthers_count : cappedOf(row![`${name}_count`])),
        items: (row![`${name}_items`] as any[]).map(ITEMS[name]),
      },
    ]),
  ) as Record<(typeof SECTIONS)[number], InboxCount & { items: InboxItem[] }>;
  return {
    data: {
      type: 'Inbox' as const,
      attributes: { ...attributes, warnings: warningsOf(row!, cappedOf(row!.blocked), now) },
    },
  };
}

function warningsOf(row: Record<string, any>, blocked: InboxCount, now: Date): InboxWarning[] {
  const result: InboxWarning[] = [];
  if (row.certificate_not_after) {
    const expiresAt = new Date(row.certificate_not_after);
    const left = expiresAt.getTime() - now.getTime();
    if (left <= 0) result.push({ code: 'E_CERTIFICATE_EXPIRED', params: { expiresAt: expiresAt.toISOString() } });
    else if (left <= EXPIRING_DAYS * DAY_MS) {
      result.push({
        code: 'E_CERTIFICATE_EXPIRING',
        params: { expiresAt: expiresAt.toISOString(), days: Math.ceil(left / DAY_MS) },
      });
    }
  }
  if (row.email && !emailConfirmed({ email: row.email, email_confirmed_address: row.email_confirmed_address })) {
    result.push({ code: 'EMAIL_NOT_CONFIRMED', params: { email: row.email } });
  }
  if (blocked.count > 0) result.push({ code: 'DOCUMENTS_BLOCKED_BY_SCAN', params: blocked });
  return result;
}
