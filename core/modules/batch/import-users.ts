import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { Locale } from '../../http/errors.ts';
import {
  type Actor,
  createUser,
  deleteUser,
  findUserIdByLoginId,
  updateUser,
  type UserInput,
  type UserPatch,
} from '../users/service.ts';
import { splitList } from './csv.ts';
import { USER_COLUMNS } from './export-users.ts';
import { type ImportTarget, type Operation, type Outcome, rowError } from './run-import.ts';
import { References } from './references.ts';
import type { TableRow, TableSpec } from './table.ts';

export const USERS_TABLE: TableSpec = { columns: USER_COLUMNS, required: ['operation', 'loginId'] };

interface Context {
  groups: References;
  roles: References;
}

interface Current {
  id: string;
  name: string;
  email: string;
  sub_emails: string[];
  mobile_phone: string | null;
  locale: Locale;
  is_admin: boolean;
  system_link_id: string | null;
  lock_version: number;
}

const TRUE = ['true', '1', 'yes'];
const FALSE = ['false', '0', 'no'];

/** The attributes a row sets: only the columns the header has; an empty optional cell clears its value. */
function fieldsOf(row: TableRow, context: Context): Partial<UserInput> & { groupIds?: string[]; roleIds?: string[] } {
  const cells = row.cells;
  const has = (column: string) => column in cells;
  const fields: Partial<UserInput> & { groupIds?: string[]; roleIds?: string[] } = {};
  if (has('name')) fields.name = cells.name!;
  if (has('email')) fields.email = cells.email!;
  if (has('subEmails')) fields.subEmails = splitList(cells.subEmails!);
  if (has('mobilePhone')) fields.mobilePhone = cells.mobilePhone || null;
  if (has('systemLinkId')) fields.systemLinkId = cells.systemLinkId || null;
  if (has('locale') && cells.locale !== '') {
    const locale = cells.locale!.toLowerCase();
    if (locale !== 'ja' && locale !== 'en') throw rowError('BATCH_VALUE_INVALID', 'locale', { column: 'locale' });
    fields.locale = locale;
  }
  if (has('isAdmin') && cells.isAdmin !== '') {
    const value = cells.isAdmin!.toLowerCase();
    if (!TRUE.includes(value) && !FALSE.includes(value)) {
      throw rowError('BATCH_VALUE_INVALID', 'isAdmin', { column: 'isAdmin' });
    }
    fields.isAdmin = TRUE.includes(value);
  }
  if (has('groups'))
    fields.groupIds = context.groups.resolve(splitList(cells.groups!), 'groups', 'BATCH_UNKNOWN_GROUP');
  if (has('roles')) fields.roleIds = context.roles.resolve(splitList(cells.roles!), 'roles', 'BATCH_UNKNOWN_ROLE');
  return fields;
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Only what differs from the stored user, so an unchanged row writes nothing (and an export imports as a no-op). */
async function changesOf(trx: Knex.Transaction, current: Current, fields: ReturnType<typeof fieldsOf>) {
  const patch: Partial<UserPatch> = {};
  if (fields.name !== undefined && fields.name !== current.name) patch.name = fields.name;
  if (fields.email !== undefined && fields.email !== current.email) patch.email = fields.email;
  if (fields.subEmails !== undefined && fields.subEmails.join(';') !== (current.sub_emails ?? []).join(';')) {
    patch.subEmails = fields.subEmails;
  }
  if (fields.mobilePhone !== undefined && fields.mobilePhone !== current.mobile_phone) {
    patch.mobilePhone = fields.mobilePhone;
  }
  if (fields.systemLinkId !== undefined && fields.systemLinkId !== current.system_link_id) {
    patch.systemLinkId = fields.systemLinkId;
  }
  if (fields.locale !== undefined && fields.locale !== current.locale) patch.locale = fields.locale;
  if (fields.isAdmin !== undefined && fields.isAdmin !== current.is_admin) patch.isAdmin = fields.isAdmin;
  if (fields.groupIds !== undefined) {
    const held = await trx('group_members').where({ user_id: current.id }).pluck('group_id');
    if (!sameSet(held, fields.groupIds)) patch.groups = fields.groupIds.map((id) => ({ id }));
  }
  if (fields.roleIds !== undefined) {
    const held = await trx('user_roles').where({ user_id: current.id }).pluck('role_id');
    if (!sameSet(held, fields.roleIds)) patch.roles = fields.roleIds.map((id) => ({ id }));
  }
  return patch;
}

/** The users import: each row goes through the users service (createUser, updateUser, deleteUser). */
export function usersTarget(deps: CoreDeps, actor: Actor): ImportTarget<Context> {
  const organizationId = actor.organizationId;
  return {
    name: 'users',
    keyColumn: 'loginId',
    columnOf: (attribute) => ({ groupIds: 'groups', roleIds: 'roles' })[attribute] ?? attribute,
    async prepare(trx) {
      return {
        groups: await References.load(trx, 'groups', organizationId),
        roles: await References.load(trx, 'roles', organizationId),
      };
    },
    async apply(trx, row, operation: Operation, context): Promise<Outcome> {
      const loginId = row.cells.loginId ?? '';
      if (operation === 'add') {
        const { groupIds, roleIds, ...fields } = fieldsOf(row, context);
        const input = {
          ...fields,
          loginId,
          name: fields.name ?? '',
          email: fields.email ?? '',
          groups: (groupIds ?? []).map((id) => ({ id })),
          ...(roleIds ? { roles: roleIds.map((id) => ({ id })) } : {}),
        };
        await createUser(deps, trx, actor, input);
        return 'added';
      }
      const userId = await findUserIdByLoginId(trx, organizationId, loginId);
      if (!userId) throw rowError('NOT_FOUND', 'loginId');
      if (operation === 'delete') {
        await deleteUser(deps, trx, actor, userId);
        return 'deleted';
      }
      const current = (await trx('users').where({ id: userId }).forUpdate().first()) as Current;
      const patch = await changesOf(trx, current, fieldsOf(row, context));
      if (Object.keys(patch).length === 0) return 'unchanged';
      await updateUser(deps, trx, actor, userId, { ...patch, lockVersion: current.lock_version });
      return 'updated';
    },
  };
}
