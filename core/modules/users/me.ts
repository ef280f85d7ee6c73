import { changePassword } from '../../auth/password-change.ts';
import { loadPasswordPolicy, passwordExpiresAt } from '../../auth/password-policy.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import type { Sessions } from '../../auth/sessions.ts';
import { findUserById } from '../../auth/users.ts';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';

/** The signed-in user's own resource: read it, change the password. */
export function meRoutes(api: ApiRouter, deps: CoreDeps, sessions: Sessions): void {
  const { knex } = deps;

  api.operation('getCurrentUser', async ({ principal }) => {
    const row = await knex('users as u')
      .join('organizations as o', 'o.id', 'u.organization_id')
      .where('u.id', principal.userId)
      .first(
        'u.id',
        'u.login_id',
        'u.name',
        'u.email',
        'u.locale',
        'u.is_owner',
        'u.is_admin',
        'u.password_changed_at',
        'u.lock_version',
        'o.id as organization_id',
        'o.code',
        'o.name as organization_name',
        'o.plan',
      );
    if (!row) throw new AppError('NOT_FOUND');
    const expiresAt = passwordExpiresAt(row.password_changed_at, await loadPasswordPolicy(knex, row.organization_id));
    return {
      body: {
        data: {
          type: 'User',
          id: row.id,
          attributes: {
            loginId: row.login_id,
            name: row.name,
            email: row.email,
            locale: row.locale,
            isOwner: row.is_owner,
            isAdmin: row.is_admin,
            passwordExpiresAt: expiresAt?.toISOString() ?? null,
            lockVersion: row.lock_version,
            organization: { id: row.organization_id, code: row.code, name: row.organization_name, plan: row.plan },
          },
        },
      },
    };
  });

  api.operation('changeMyPassword', async ({ principal, body, req }) => {
    const input = body.data.attributes;
    await knex.transaction(async (trx) => {
      const user = await findUserById(trx, principal.userId);
      if (!user) throw new AppError('NOT_FOUND');
      if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
        throw new AppError('CURRENT_PASSWORD_WRONG', { pointer: '/data/attributes/currentPassword' });
      }
      await changePassword(deps, trx, user, input, req);
      await sessions.revokeAllOf(trx, user.id, 'password-changed', principal.sessionId);
    });
    return { status: 204 };
  });
}
