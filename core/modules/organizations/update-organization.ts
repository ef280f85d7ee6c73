import type { Knex } from 'knex';
import type { ApiRouter } from '../../contract/router.ts';
import { assertLockVersion } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import { isValidCorporateNumber } from './corporate-number.ts';
import { organizationBody, type OrganizationRow } from './organization-resource.ts';
import { maxGroupsOf } from './plan-limits.ts';

const at = (field: string) => `/data/attributes/${field}`;

interface Changes {
  name?: string;
  corporate_number?: string | null;
  not_subject_to_corporate_number?: boolean;
  address?: string;
}

/** Turns the request into column changes, reporting every invalid field at once. */
function changesFrom(input: {
  name?: string;
  corporateNumber?: string | null;
  notSubjectToCorporateNumber?: boolean;
  address?: string;
}): Changes {
  const problems: FieldError[] = [];
  const changes: Changes = {};
  if (input.name !== undefined) {
    changes.name = input.name.trim();
    if (!changes.name) problems.push({ code: 'VALIDATION_FAILED', pointer: at('name'), detail: 'name is blank' });
  }
  if (input.address !== undefined) changes.address = input.address.trim();
  const number = input.corporateNumber === undefined ? undefined : input.corporateNumber?.trim() || null;
  if (input.notSubjectToCorporateNumber === true) {
    // "Not subject to corporate number" and a number exclude each other.
    if (number) problems.push({ code: 'CORPORATE_NUMBER_INVALID', pointer: at('corporateNumber') });
    changes.not_subject_to_corporate_number = true;
    changes.corporate_number = null;
  } else {
    if (input.notSubjectToCorporateNumber === false) changes.not_subject_to_corporate_number = false;
    if (number !== undefined) {
      if (number && !isValidCorporateNumber(number)) {
        problems.push({ code: 'CORPORATE_NUMBER_INVALID', pointer: at('corporateNumber') });
      }
      changes.corporate_number = number;
      if (number) changes.not_subject_to_corporate_number = false;
    }
  }
  if (problems.length > 0) throw AppError.invalid(problems);
  return changes;
}

function isCorporateNumberTaken(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  return e.code === '23505' && Boolean((e.constraint ?? e.message ?? '').includes('corporate_number'));
}

/** updateOrganization: name, corporate number (or "not subject"), address; administrators only. */
export function updateOrganizationRoute(api: ApiRouter, deps: CoreDeps): void {
  const { knex, oplog, clock } = deps;
  api.operation('updateOrganization', { permission: 'organization:manage' }, async ({ principal, body, req }) => {
    const { lockVersion, ...input } = body.data.attributes;
    const changes = changesFrom(input);
    const organizationId = principal.organizationId;
    if (changes.corporate_number) {
      const other = await knex('organizations')
        .where({ corporate_number: changes.corporate_number })
        .whereNot({ id: organizationId })
        .first('id');
      if (other) throw new AppError('CORPORATE_NUMBER_TAKEN', { pointer: at('corporateNumber') });
    }
    try {
      const row = await knex.transaction(async (trx: Knex.Transaction) => {
        const before = await trx('organizations').where({ id: organizationId }).forUpdate().first<OrganizationRow>();
        if (!before) throw new AppError('NOT_FOUND');
        assertLockVersion(before, lockVersion);
        const [after] = (await trx('organizations')
          .where({ id: organizationId })
          .update({ ...changes, updated_at: clock.now(), lock_version: trx.raw('lock_version + 1') })
          .returning('*')) as OrganizationRow[];
        const diff = Object.fromEntries(
          Object.entries(changes)
            .filter(([column, value]) => before[column as keyof OrganizationRow] !== value)
            .map(([column, value]) => [column, { from: before[column as keyof OrganizationRow], to: value }]),
        );
        await oplog.append(trx, req, {
          action: 'organization.updated',
          organizationId,
          actorUserId: principal.userId,
          targetType: 'organization',
          targetId: organizationId,
          details: { changes: diff },
        });
        return after!;
      });
      return { body: await organizationBody(knex, row, principal, maxGroupsOf) };
    } catch (error) {
      // Another organization registered the same number between our check and our write.
      if (isCorporateNumberTaken(error))
        throw new AppError('CORPORATE_NUMBER_TAKEN', { pointer: at('corporateNumber') });
      throw error;
    }
  });
}
