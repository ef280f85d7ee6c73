import type { Knex } from 'knex';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { likePattern } from '../../http/pagination.ts';
import { writeCsv } from '../../contract/csv.ts';
import { type Named, References } from './references.ts';
import { MAX_EXPORT_ITEMS } from './table.ts';

/** The users CSV columns, in the order the export writes them (the import accepts any order). */
export const USER_COLUMNS = [
  'operation',
  'loginId',
  'name',
  'email',
  'subEmails',
  'mobilePhone',
  'locale',
  'isAdmin',
  'systemLinkId',
  'groups',
  'roles',
] as const;

export interface UserExportFilters {
  'filter[q]'?: string;
  'filter[groupId]'?: string;
  'filter[roleId]'?: string;
  'filter[status]'?: 'active' | 'deactivated';
}

interface UserRow {
  id: string;
  login_id: string;
  name: string;
  email: string;
  sub_emails: string[];
  mobile_phone: string | null;
  locale: string;
  is_admin: boolean;
  system_link_id: string | null;
}

/**
 * The organization's users (never deleted ones) matching the filters as the import's CSV, every row `update`, sorted
 * by user ID. More than MAX_EXPORT_ITEMS matches is refused with CSV_EXPORT_LIMIT_EXCEEDED and the total.
 */
export async function exportUsers(knex: Knex, principal: Principal, filters: UserExportFilters): Promise<string> {
  const organizationId = principal.organizationId;
  // API keys' service users are not people: they are managed with their keys.
  const scope = knex('users')
    .where({ organization_id: organizationId, kind: 'person' })
    .whereNot({ status: 'deleted' });
  const q = filters['filter[q]']?.trim();
  if (q) {
    const pattern = likePattern(q);
    scope.where((w) => w.whereILike('login_id', pattern).orWhereILike('name', pattern).orWhereILike('email', pattern));
  }
  if (filters['filter[status]']) scope.where({ status: filters['filter[status]'] });
  if (filters['filter[groupId]']) {
    scope.whereIn('id', knex('group_members').where({ group_id: filters['filter[groupId]'] }).select('user_id'));
  }
  if (filters['filter[roleId]']) {
    scope.whereIn('id', knex('user_roles').where({ role_id: filters['filter[roleId]'] }).select('user_id'));
  }
  const [{ total }] = (await scope.clone().count<{ total: number }[]>({ total: '*' })) as [{ total: number }];
  if (Number(total) > MAX_EXPORT_ITEMS) {
    throw new AppError('CSV_EXPORT_LIMIT_EXCEEDED', { params: { max: MAX_EXPORT_ITEMS, total: Number(total) } });
  }
  const users = await scope
    .orderBy('login_id')
    .select<UserRow[]>(
      'id',
      'login_id',
      'name',
      'email',
      'sub_emails',
      'mobile_phone',
      'locale',
      'is_admin',
      'system_link_id',
    );
  const ids = users.map((u) => u.id);
  const groups = await References.load(knex, 'groups', organizationId);
  const roles = await References.load(knex, 'roles', organizationId);
  const memberships = await knex('group_members')
    .join('groups', 'groups.id', 'group_members.group_id')
    .whereIn('group_members.user_id', ids)
    .orderBy('groups.name')
    .select<(Named & { user_id: string })[]>(
      'group_members.user_id',
      'groups.id',
      'groups.name',
      'groups.system_link_id',
    );
  const holdings = await knex('user_roles')
    .join('roles', 'roles.id', 'user_roles.role_id')
    .whereIn('user_roles.user_id', ids)
    .orderBy('roles.name')
    .select<(Named & { user_id: string })[]>('user_roles.user_id', 'roles.id', 'roles.name', 'roles.system_link_id');
  const labels = (rows: (Named & { user_id: string })[], refs: References) => {
    const byUser = new Map<string, string[]>();
    for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), refs.label(row)]);
    return (userId: string) => (byUser.get(userId) ?? []).join(';');
  };
  const groupsOf = labels(memberships, groups);
  const rolesOf = labels(holdings, roles);
  const rows = users.map((u) => [
    'update',
    u.login_id,
    u.name,
    u.email,
    (u.sub_emails ?? []).join(';'),
    u.mobile_phone ?? '',
    u.locale,
    String(u.is_admin),
    u.system_link_id ?? '',
    groupsOf(u.id),
    rolesOf(u.id),
  ]);
  return writeCsv(USER_COLUMNS, rows);
}
