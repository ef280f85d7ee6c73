/*
 * Box refused the connection's authorization for good (revoked, expired refresh token): the connection turns
 * `auth_failed`, uploads waiting for it fail with BOX_AUTH_FAILED instead of retrying, and the organization's
 * administrators get one mail per failure (the next connection re-arms it).
 */
import type { ConnectionRow, Ctx } from './client.ts';

export async function markAuthFailed(ctx: Ctx, connection: Pick<ConnectionRow, 'id' | 'organization_id'>) {
  const now = ctx.clock.now();
  const organizationId = connection.organization_id;
  await ctx.db.transaction(async (trx) => {
    await trx('box_connections').where({ id: connection.id }).update({
      status: 'auth_failed',
      last_error_code: 'BOX_AUTH_FAILED',
      last_error_at: now,
      updated_at: now,
    });
    await trx('box_uploads')
      .where({ organization_id: organizationId, status: 'queued' })
      .update({ status: 'failed', error_code: 'BOX_AUTH_FAILED', updated_at: now });
    // Whoever sets the mark first tells the administrators; everyone else sees it set.
    const first = await trx('box_connections')
      .where({ id: connection.id })
      .whereNull('auth_failure_notified_at')
      .update({ auth_failure_notified_at: now });
    if (first !== 1) return;
    const row = await trx('box_connections as c')
      .join('organizations as o', 'o.id', 'c.organization_id')
      .where('c.id', connection.id)
      .first('c.account_login', 'o.name as organization');
    const admins: { id: string; name: string; email: string | null; locale: 'ja' | 'en' }[] = await trx('users')
      .where({ organization_id: organizationId })
      .andWhere((q) => q.where('is_admin', true).orWhere('is_owner', true))
      .whereNot({ status: 'deleted' })
      .select('id', 'name', 'email', 'locale');
    for (const admin of admins) {
      if (!admin.email) continue;
      await ctx.mail.send(trx, {
        kind: 'box-auth-failed',
        to: admin.email,
        locale: admin.locale,
        params: {
          userName: admin.name,
          organizationName: row?.organization ?? '',
          accountLogin: row?.account_login ?? '',
          link: `${ctx.publicUrl}/organizations/settings/box`,
        },
        organizationId,
        userId: admin.id,
      });
    }
    await ctx.oplog.append(trx, null, {
      action: 'box.auth_failed',
      organizationId,
      targetType: 'organization',
      targetId: organizationId,
      details: { notifiedAdministrators: admins.filter((a) => a.email).length },
    });
  });
}
