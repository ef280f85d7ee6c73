/*
 * Document-scope property values as a caller sees them: users of the workspace owner organization see every
 * value, partners (clients) only properties public to clients. `editable` is edit rights in the workspace and,
 * for clients, the property's editable-by-client setting. writableByCaller enforces the same on updates.
 */
import type { Knex } from 'knex';
import type { Principal } from '../../http/context.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import {
  type PropertyValueInput,
  type PropertyValueRow,
  propertyValueQuery,
  type ShownPropertyValue,
  shownPropertyValue,
} from '../properties/values.ts';

export async function readDocumentProperties(
  db: Knex,
  principal: Principal,
  document: { id: string; organization_id: string },
  canEdit: boolean,
): Promise<ShownPropertyValue[]> {
  const isClient = document.organization_id !== principal.organizationId;
  const query = propertyValueQuery(db, 'document').where({
    'v.target_id': document.id,
    'v.organization_id': document.organization_id,
  });
  if (isClient) query.where('p.public_to_client', true);
  const rows = (await query) as PropertyValueRow[];
  return rows.map((row) => shownPropertyValue(row, canEdit && (!isClient || row.editable_by_client)));
}

/**
 * Refuses values a partner may not change: a property not public to clients is unknown to them (422
 * REFERENCE_NOT_FOUND), one not editable by clients is 403 FORBIDDEN at its pointer.
 */
export async function assertClientMayWrite(
  trx: Knex,
  isClient: boolean,
  values: PropertyValueInput[],
  pointer: (index: number) => string,
): Promise<void> {
  if (!isClient || values.length === 0) return;
  const rows = (await trx('custom_properties')
    .whereIn(
      'id',
      values.map((v) => v.propertyId),
    )
    .select('id', 'public_to_client', 'editable_by_client')) as {
    id: string;
    public_to_client: boolean;
    editable_by_client: boolean;
  }[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const problems: FieldError[] = [];
  values.forEach((value, index) => {
    const property = byId.get(value.propertyId);
    if (!property?.public_to_client) problems.push({ code: 'REFERENCE_NOT_FOUND', pointer: pointer(index) });
    else if (!property.editable_by_client) throw new AppError('FORBIDDEN', { pointer: pointer(index) });
  });
  if (problems.length > 0) throw AppError.invalid(problems);
}
