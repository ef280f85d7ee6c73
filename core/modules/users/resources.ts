import type { Knex } from 'knex';
import { AppError } from '../../http/errors.ts';

/** Users as the contract's `User` resources, in the order of `ids`, with their groups and roles (3 queries). */
export async function userResources(knex: Knex, organizationId: string, ids: string[], now: Date) {
  if (ids.length === 0) return [];
  const rows = await knex('users as u')
    .leftJoin('sign_in_throttles as t', 't.login_id', 'u.login_id')
    .where({ 'u.organization_id': organizationId, 'u.kind': 'person' }) // a key's service user is no User (404)
    .whereIn('u.id', ids)
    .whereNot('u.status', 'deleted')
    .select('u.*', 't.locked_until');
  const groups = await knex('group_members as m')
    .join('groups as g', 'g.id', 'm.group_id')
    .whereIn('m.user_id', ids)
    .orderBy('g.name')
    .select('m.user_id', 'g.id', 'g.name', 'm.is_group_admin');
  const roles = await knex('user_roles as ur')
    .join('roles as r', 'r.id', 'ur.role_id')
    .whereIn('ur.user_id', ids)
    .orderBy('r.name')
    .select('ur.user_id', 'r.id', 'r.name');
  const byId = new Map(rows.map((row) => [row.id as string, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const throttled = row.locked_until !== null && row.locked_until > now;
    return [
      {
        type: 'User' as const,
        id,
        attributes: {
          loginId: row.login_id,
          name: row.name,
          email: row.email,
          subEmails: row.sub_emails ?? [],
          mobilePhone: row.mobile_phone,
          locale: row.locale,
          isOwner: row.is_owner,
          isAdmin: row.is_admin,
          status: row.status,
          locked: row.locked_at !== null || throttled,
          lockedByAdmin: row.locked_at !== null,
          emailBlocked: row.email_blocked_at !== null,
          mustChangePassword: row.must_change_password,
          systemLinkId: row.system_link_id,
          groups: groups
            .filter((g) => g.user_id === id)
            .map((g) => ({ id: g.id, name: g.name, isGroupAdmin: g.is_group_admin })),
          roles: roles.filter((r) => r.user_id === id).map((r) => ({ id: r.id, name: r.name })),
          lockVersion: row.lock_version,
          createdAt: row.created_at.toISOString(),
          updatedAt: row.updated_at.toISOString(),
        },
      },
    ];
  });
}

/** One user's resource body, or NOT_FOUND. */
export async function userBody(knex: Knex, organizationId: string, id: string, now: Date) {
  const [data] = await userResources(knex, organizationId, [id], now);
  if (!data) throw new AppError('NOT_FOUND');
  return { data };
}
