/*
 * Rows and resources of one-time users and their invitations, shared by the member operations (invite, cancel,
 * re-send, re-invite, QR code, lists) and the guest's authentication.
 */
import type { Knex } from 'knex';

/** An invitation joined with its one-time user and business flow (INVITATION_COLUMNS). */
export interface InvitationRow {
  id: string;
  organization_id: string;
  one_time_user_id: string;
  business_flow_id: string;
  channel: 'email' | 'qr';
  status: 'invited' | 'registered' | 'cancelled';
  link_expires_at: Date | null;
  qr_expires_at: Date | null;
  sent_count: number;
  last_sent_at: Date | null;
  registered_at: Date | null;
  cancelled_at: Date | null;
  created_at: Date;
  lock_version: number;
  user_name: string | null;
  user_email: string | null;
  user_locale: 'ja' | 'en';
  user_status: 'invited' | 'registered';
  flow_name: string;
  workspace_id: string;
}

/** Invitations with what their resources and mails need; add where clauses (alias `i`). */
export function invitationQuery(knex: Knex) {
  return knex('one_time_invitations as i')
    .join('one_time_users as u', 'u.id', 'i.one_time_user_id')
    .join('business_flows as f', 'f.id', 'i.business_flow_id')
    .select<InvitationRow[]>(
      'i.id',
      'i.organization_id',
      'i.one_time_user_id',
      'i.business_flow_id',
      'i.channel',
      'i.status',
      'i.link_expires_at',
      'i.qr_expires_at',
      'i.sent_count',
      'i.last_sent_at',
      'i.registered_at',
      'i.cancelled_at',
      'i.created_at',
      'i.lock_version',
      'u.name as user_name',
      'u.email as user_email',
      'u.locale as user_locale',
      'u.status as user_status',
      'f.name as flow_name',
      'f.workspace_id',
    );
}

export async function invitationById(knex: Knex, invitationId: string): Promise<InvitationRow> {
  const row = await invitationQuery(knex).where('i.id', invitationId).first();
  if (!row) throw new Error(`one-time invitation ${invitationId} not found`);
  return row;
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export function invitationResource(row: InvitationRow, now: Date) {
  const qrOpen = row.qr_expires_at && row.qr_expires_at.getTime() > now.getTime();
  return {
    type: 'OneTimeInvitation' as const,
    id: row.id,
    attributes: {
      oneTimeUserId: row.one_time_user_id,
      name: row.user_name,
      email: row.user_email,
      locale: row.user_locale,
      businessFlowId: row.business_flow_id,
      businessFlowName: row.flow_name,
      channel: row.channel,
      status: row.status,
      sentCount: row.sent_count,
      lastSentAt: iso(row.last_sent_at),
      linkExpiresAt: iso(row.link_expires_at),
      qrExpiresAt: qrOpen ? iso(row.qr_expires_at) : null,
      registeredAt: iso(row.registered_at),
      cancelledAt: iso(row.cancelled_at),
      createdAt: row.created_at.toISOString(),
      lockVersion: row.lock_version,
    },
  };
}

/** t***@example.com */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

/** A time as a guest reads it in a mail: 2026-12-11 09:30 (JST). */
export function mailTime(at: Date): string {
  const jst = new Date(at.getTime() + 9 * 3600_000).toISOString();
  return `${jst.slice(0, 10)} ${jst.slice(11, 16)} (JST)`;
}

/** The organization's name (owner of the workspace, or the inviting member's). */
export async function organizationName(knex: Knex, organizationId: string): Promise<string> {
  const row = await knex('organizations').where({ id: organizationId }).first('name');
  return (row?.name as string | undefined) ?? '';
}
