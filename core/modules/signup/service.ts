import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { DEFAULT_PASSWORD_POLICY, confirmationViolation, passwordRuleViolations } from '../../auth/password-policy.ts';
import { hashPassword } from '../../auth/passwords.ts';
import type { CoreDeps } from '../../deps.ts';
import type { RequestContext } from '../../http/context.ts';
import { AppError, type FieldError, type Locale } from '../../http/errors.ts';
import { createDefaultGroup } from '../groups/service.ts';
import { isValidCorporateNumber } from '../organizations/corporate-number.ts';
import { currentTerms } from '../terms/service.ts';

export interface SignUpInput {
  organizationName: string;
  corporateNumber?: string | null;
  loginId: string;
  userName: string;
  email: string;
  password: string;
  passwordConfirmation: string;
  locale?: Locale;
  acceptTermId: string;
}

const at = (field: string) => `/data/attributes/${field}`;
const ORG_CODE_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A short, unambiguous code for the organization's sign-in URL (/{orgCode}/sso-login). */
function newOrganizationCode(): string {
  return Array.from(randomBytes(8), (byte) => ORG_CODE_ALPHABET[byte % ORG_CODE_ALPHABET.length]).join('');
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  return e.code === '23505' && (e.constraint === constraint || Boolean(e.message?.includes(constraint)));
}

/** The default workspace's name, in the signup's language: 「{組織名}の契約」 / "{organization} contracts". */
export function defaultWorkspaceName(organizationName: string, locale: Locale): string {
  return locale === 'en' ? `${organizationName} contracts` : `${organizationName}の契約`;
}

/**
 * Creates an organization on the free plan with its owner administrator, after the terms in force were agreed.
 * Every field problem is reported at once; nothing is written unless everything is valid. The organization starts
 * with a group named after it (the owner its member and group admin) and a workspace in which that group takes part
 * (public and editable), so the owner can send a first document at once.
 */
export async function signUp(deps: CoreDeps, input: SignUpInput, req: RequestContext) {
  const { knex, clock, oplog } = deps;
  const now = clock.now();
  const terms = await currentTerms(knex, now);
  const corporateNumber = input.corporateNumber || null;

  const problems: FieldError[] = [
    ...passwordRuleViolations(input.password, input.loginId, DEFAULT_PASSWORD_POLICY),
    ...confirmationViolation(input.password, input.passwordConfirmation),
  ];
  if (input.acceptTermId !== terms.id) problems.push({ code: 'TERMS_NOT_AGREED', pointer: at('acceptTermId') });
  if (corporateNumber && !isValidCorporateNumber(corporateNumber)) {
    problems.push({ code: 'CORPORATE_NUMBER_INVALID', pointer: at('corporateNumber') });
  } else if (
    corporateNumber &&
    (await knex('organizations').where({ corporate_number: corporateNumber }).first('id'))
  ) {
    problems.push({ code: 'CORPORATE_NUMBER_TAKEN', pointer: at('corporateNumber') });
  }
  if (await knex('users').where({ login_id: input.loginId }).first('id')) {
    problems.push({ code: 'LOGIN_ID_TAKEN', pointer: at('loginId') });
  }
  if (problems.length > 0) throw AppError.invalid(problems);

  const passwordHash = await hashPassword(input.password);
  let created: { organization: Record<string, any>; ownerId: string };
  try {
    created = await knex.transaction(async (trx: Knex.Transaction) => {
      const [organization] = await trx('organizations')
        .insert({
          code: newOrganizationCode(),
          name: input.organizationName,
          corporate_number: corporateNumber,
          created_at: now,
          updated_at: now,
        })
        .returning(['id', 'code', 'name', 'corporate_number', 'plan', 'lock_version']);
      await trx('password_policies').insert({ organization_id: organization.id, updated_at: now });
      const [owner] = await trx('users')
        .insert({
          organization_id: organization.id,
          login_id: input.loginId,
          name: input.userName,
          email: input.email,
          locale: input.locale ?? req.locale,
          password_hash: passwordHash,
          password_changed_at: now,
          is_owner: true,
          is_admin: true,
          created_at: now,
          updated_at: now,
        })
        .returning('id');
      await trx('password_history').insert({ user_id: owner.id, password_hash: passwordHash, created_at: now });
      // Every user belongs to a group: the first is named after the organization, the owner its group admin.
      const group = await createDefaultGroup(trx, organization.id, input.organizationName, owner.id);
      const workspaceName = defaultWorkspaceName(input.organizationName, input.locale ?? req.locale);
      const [workspace] = await trx('workspaces')
        .insert({
          organization_id: organization.id,
          name: workspaceName,
          mail_notification: true,
          created_by: owner.id,
          created_at: now,
          updated_at: now,
        })
        .returning('id');
      await trx('workspace_participants').insert({
        organization_id: organization.id,
        workspace_id: workspace.id,
        kind: 'group',
        group_id: group.id,
        is_public: true,
        is_editable: true,
      });
      await trx('term_acceptances').insert({ user_id: owner.id, term_id: terms.id, accepted_at: now });
      await oplog.append(trx, req, {
        action: 'organization.signed_up',
        organizationId: organization.id,
        actorUserId: owner.id,
        targetType: 'organization',
        targetId: organization.id,
        details: {
          loginId: input.loginId,
          plan: organization.plan,
          termsVersion: terms.version,
          defaultGroupId: group.id,
          defaultWorkspace: { id: workspace.id, name: workspaceName },
        },
      });
      return { organization, ownerId: owner.id as string };
    });
  } catch (error) {
    // Another sign-up took the same ID between our check and our insert.
    if (isUniqueViolation(error, 'users_login_id_unique')) {
      throw new AppError('LOGIN_ID_TAKEN', { pointer: at('loginId') });
    }
    if (isUniqueViolation(error, 'organizations_corporate_number_unique')) {
      throw new AppError('CORPORATE_NUMBER_TAKEN', { pointer: at('corporateNumber') });
    }
    throw error;
  }
  await deps.events.emit('organization.signed_up', {
    organizationId: created.organization.id,
    ownerUserId: created.ownerId,
    plan: created.organization.plan,
  });
  return created;
}
