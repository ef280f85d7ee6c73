import { changePassword } from '../../auth/password-change.ts';
import { DEFAULT_PASSWORD_POLICY, passwordExpiresAt } from '../../auth/password-policy.ts';
import { verifyCurrentPassword } from '../../auth/current-password.ts';
import type { Sessions } from '../../auth/sessions.ts';
import { findUserById } from '../../auth/users.ts';
import type { ApiRouter } from '../../contract/router.ts';
import { executeOnConnection } from '../../db/index.ts';
import type { CoreDeps } from '../../deps.ts';
import { perUser } from '../../access/rate-limits.ts';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { updateMe } from './account.ts';
import { emailConfirmed } from '../signing/email-confirmation.ts';
import { permissionsVersion } from '../../access/permissions-version.ts';
import { PLAN_FEATURE_NAMES, planHasFeature } from '../../access/plans.ts';

/**
 * One round trip, prepared once per connection: the user, the organization, its password expiry days and the
 * user's groups (what a workspace is shared with and tasks are assigned to).
 */
const CURRENT_USER_SQL = `
  SELECT u.id, u.login_id, u.name, u.email, u.email_confirmed_address, u.mobile_phone, u.locale, u.is_owner, u.is_admin, u.password_changed_at, u.lock_version,
         o.id AS organization_id, o.code, o.name AS organization_name, o.plan, p.expiry_days,
         (SELECT coalesce(json_agg(json_build_object('id', g.id, 'name', g.name, 'isGroupAdmin', m.is_group_admin)
                                   ORDER BY g.name), '[]'::json)
            FROM group_members m JOIN groups g ON g.id = m.group_id
           WHERE m.user_id = u.id) AS groups
    FROM users u
    JOIN organizations o ON o.id = u.organization_id
    LEFT JOIN password_policies p ON p.organization_id = u.organization_id
   WHERE u.id = $1`;

/** The signed-in user's own resource: read it, change the password. */
export function meRoutes(api: ApiRouter, deps: CoreDeps, sessions: Sessions): void {
  const { knex } = deps;

  /**
   * The answer of getCurrentUser (and of updateMe, after its change). A person's answer is kept in the principal
   * cache (core/auth/principal-cache.ts) until a change to the user or their organization is told; an API key's
   * principal is decided per operation, so its answer is always read.
   */
  const currentUser = async (principal: Principal) => {
    const cache = principal.apiKey ? null : sessions.cache;
    const cached = cache?.body(principal.userId);
    if (cached) return { body: cached as Awaited<ReturnType<typeof readCurrentUser>> };
    const generation = cache?.generation ?? 0;
    const body = await readCurrentUser(principal);
    cache?.putBody(generation, principal, body);
    return { body };
  };

  const readCurrentUser = async (principal: Principal) => {
    const { rows } = await executeOnConnection(knex, CURRENT_USER_SQL, [principal.userId], 'keiyaku_current_user');
    const row = rows[0] as Record<string, any> | undefined;
    if (!row) throw new AppError('NOT_FOUND');
    const expiresAt = passwordExpiresAt(row.password_changed_at, {
      ...DEFAULT_PASSWORD_POLICY,
      expiryDays: row.expiry_days ?? DEFAULT_PASSWORD_POLICY.expiryDays,
    });
    return {
      data: {
        type: 'User',
        id: row.id,
        attributes: {
          loginId: row.login_id,
          name: row.name,
          email: row.email,
          emailConfirmed: emailConfirmed(row as { email: string; email_confirmed_address: string | null }),
          mobilePhone: row.mobile_phone ?? null,
          locale: row.locale,
          isOwner: row.is_owner,
          isAdmin: row.is_admin,
          passwordExpiresAt: expiresAt?.toISOString() ?? null,
          lockVersion: row.lock_version,
          organization: {
            id: row.organization_id,
            code: row.code,
            name: row.organization_name,
            plan: row.plan,
            // A feature whose plugin is switched off is not offered, whatever the plan.
            features: PLAN_FEATURE_NAMES.filter(
              (f) => planHasFeature(principal.plan, f, principal.options) && !deps.featuresOff.has(f),
            ),
          },
          groups: row.groups,
          permissionsVersion: await permissionsVersion(knex, principal),
        },
      },
    };
  };

  api.operation('getCurrentUser', async ({ principal }) => currentUser(principal));

  api.operation('updateMe', async ({ principal, body, req }) => {
    await updateMe(deps, principal, body.data.attributes, req);
    // Read after the change, never from the cache its notification may not have reached yet.
    sessions.cache?.apply(`u:${principal.userId}`);
    return { body: await readCurrentUser(principal) };
  });

  // Per user on top of the sign-in lock that wrong current passwords count against.
  const passwordLimits = { rateLimit: [perUser('passwordChangePerUser')] };
  api.operation('changeMyPassword', passwordLimits, async ({ principal, body, req }) => {
    const input = body.data.attributes;
    const checked = await findUserById(knex, principal.userId);
    if (!checked) throw new AppError('NOT_FOUND');
    // Counted against the sign-in lock, outside the transaction below so a wrong password stays counted.
    await verifyCurrentPassword(deps, checked, input.currentPassword, req);
    await knex.transaction(async (trx) => {
      const user = await findUserById(trx, principal.userId);
      // A password changed since the check above was not the one the caller proved.
      if (!user || user.password_hash !== checked.password_hash) {
        throw new AppError('CURRENT_PASSWORD_WRONG', { pointer: '/data/attributes/currentPassword' });
      }
      await changePassword(deps, trx, user, input, req);
      await sessions.revokeAllOf(trx, user.id, 'password-changed', principal.sessionId);
    });
    return { status: 204 };
  });
}
