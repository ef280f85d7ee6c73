import type { CoreDeps } from '../../deps.ts';
import { assertLockVersion } from '../../db/lock.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError, type Locale } from '../../http/errors.ts';
import type { MailKind, MailTemplateText } from '../../mail/messages.ts';
import { type EffectiveTemplate, fromRow, type MailTemplateRow } from './templates.ts';

/**
 * Saves the organization's own template of a kind and language (placeholders already checked). A built-in
 * template has lockVersion 0: the first save inserts, and of two first saves racing, the second is a 409.
 */
export async function saveMailTemplate(
  deps: CoreDeps,
  principal: Principal,
  req: RequestContext,
  input: MailTemplateText & { kind: MailKind; locale: Locale; lockVersion: number },
): Promise<EffectiveTemplate> {
  const { kind, locale, lockVersion, name, summary, subject, body } = input;
  const where = { organization_id: principal.organizationId, kind, locale };
  return deps.knex.transaction(async (trx) => {
    const current = await trx('mail_templates').where(where).forUpdate().first<MailTemplateRow | undefined>();
    const now = deps.clock.now();
    let saved: MailTemplateRow | undefined;
    if (current) {
      assertLockVersion(current, lockVersion);
      [saved] = await trx('mail_templates')
        .where({ id: current.id })
        .update({
          name,
          summary,
          subject,
          body,
          updated_by: principal.userId,
          updated_at: now,
          lock_version: trx.raw('lock_version + 1'),
        })
        .returning('*');
    } else {
      if (lockVersion !== 0) throw new AppError('UPDATED_BY_ANOTHER_USER');
      [saved] = await trx('mail_templates')
        .insert({
          ...where,
          name,
          summary,
          subject,
          body,
          updated_by: principal.userId,
          created_at: now,
          updated_at: now,
        })
        .onConflict(['organization_id', 'kind', 'locale'])
        .ignore()
        .returning('*');
      if (!saved) throw new AppError('UPDATED_BY_ANOTHER_USER');
    }
    await deps.oplog.append(trx, req, {
      action: 'mail_template.updated',
      organizationId: principal.organizationId,
      actorUserId: principal.userId,
      targetType: 'mail_template',
      targetId: saved!.id,
      details: { kind, locale, lockVersion: saved!.lock_version, created: !current },
    });
    return fromRow(saved!);
  });
}

/** Deletes the customisation, so the built-in template applies again; without one, nothing changes. */
export async function resetMailTemplate(
  deps: CoreDeps,
  principal: Principal,
  req: RequestContext,
  input: { kind: MailKind; locale: Locale; lockVersion?: number },
): Promise<void> {
  const { kind, locale } = input;
  await deps.knex.transaction(async (trx) => {
    const current = await trx('mail_templates')
      .where({ organization_id: principal.organizationId, kind, locale })
      .forUpdate()
      .first<MailTemplateRow | undefined>();
    if (!current) return;
    if (input.lockVersion !== undefined) assertLockVersion(current, input.lockVersion);
    await trx('mail_templates').where({ id: current.id }).delete();
    await deps.oplog.append(trx, req, {
      action: 'mail_template.reset',
      organizationId: principal.organizationId,
      actorUserId: principal.userId,
      targetType: 'mail_template',
      targetId: current.id,
      details: { kind, locale, subject: current.subject },
    });
  });
}
