import type { Knex } from 'knex';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { workspaceAccess, type WorkspaceAccess } from './access.ts';
import { canManage } from './read.ts';

/**
 * The caller's access to a workspace they are about to change: 404 when they cannot see it, 403
 * WORKSPACE_EDIT_NOT_ALLOWED when they see it but may not manage it (partners never may).
 */
export async function manageableWorkspace(
  trx: Knex,
  principal: Principal,
  workspaceId: string,
): Promise<WorkspaceAccess> {
  const access = await workspaceAccess(trx, principal, workspaceId);
  if (!canManage(access)) throw new AppError('WORKSPACE_EDIT_NOT_ALLOWED');
  return access;
}
