import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { SCOPES } from '../../contract/property-values.ts';
import type { PropertyValueInput } from '../properties/values.ts';
import { writePropertyValues } from '../properties/values.ts';
import { uniquely } from '../users/validation.ts';
import { assertCanEdit, workspaceAccess, type WorkspaceAccess } from '../workspaces/access.ts';
import { logFlowChange } from './complete.ts';

export interface FlowCreateInput {
  name?: string;
  systemLinkId?: string | null;
  comment?: string | null;
  autoComplete?: boolean;
  businessFlowTemplateId?: string;
  properties?: PropertyValueInput[];
  /** A draft: seen only by the owner organization's editors, nothing live until sendBusinessFlow. */
  draft?: boolean;
}

/** The unique constraints of business_flows and what each means. */
export const UNIQUE_FLOW = {
  business_flows_organization_id_system_link_id_unique: {
    code: 'SYSTEM_LINK_ID_TAKEN',
    pointer: '/data/attributes/systemLinkId',
  },
} as const;

/** SYSTEM_LINK_ID_TAKEN when another flow of the organization already has the ID for system link. */
export async function assertSystemLinkIdFree(
  trx: Knex,
  organizationId: string,
  systemLinkId: string | null | undefined,
  exceptId?: string,
) {
  if (!systemLinkId) return;
  const query = trx('business_flows').where({ organization_id: organizationId, system_link_id: systemLinkId });
  if (exceptId) query.whereNot('id', exceptId);
  if (await query.first('id')) {
    throw new AppError('SYSTEM_LINK_ID_TAKEN', { pointer: '/data/attributes/systemLinkId' });
  }
}

/**
 * Properties a partner (client) sends must be flow-scope properties of the owner organization that are public to
 * and editable by clients: a hidden one is as unknown (REFERENCE_NOT_FOUND), a visible read-only one FORBIDDEN.
 */
export async function assertClientMayWrite(trx: Knex, access: WorkspaceAccess, values: PropertyValueInput[]) {
  if (access.isOwnerOrganization || values.length === 0) return;
  const rows: { id: string; public_to_client: boolean; editable_by_client: boolean }[] = await trx('custom_properties')
    .where({ organization_id: access.ownerOrganizationId, scope: SCOPES.businessFlow })
    .whereIn(
      'id',
      values.map((v) => v.propertyId),
    )
    .select('id', 'public_to_client', 'editable_by_client');
  const byId = new Map(rows.map((r) => [r.id, r]));
  values.forEach((value, index) => {
    const row = byId.get(value.propertyId);
    const pointer = `/data/attributes/properties/${index}`;
    if (!row?.public_to_client)
      throw AppError.invalid([{ code: 'REFERENCE_NOT_FOUND', pointer: `${pointer}/propertyId` }]);
    if (!row.editable_by_client) throw new AppError('FORBIDDEN', { pointer: `${pointer}/value` });
  });
}

interface TemplateRow {
  id: string;
  name: string;
  comment: string | null;
  auto_complete: boolean;
  properties: { propertyId: string; value: string | number | null }[];
}

async function templateOf(trx: Knex, access: WorkspaceAccess, templateId: string | undefined) {
  if (!templateId) return null;
  const template = (await trx('business_flow_templates')
    .where({ id: templateId, organization_id: access.ownerOrganizationId })
    .first('id', 'name', 'comment', 'auto_complete', 'properties')) as TemplateRow | undefined;
  if (!template) {
    throw AppError.invalid([{ code: 'REFERENCE_NOT_FOUND', pointer: '/data/attributes/businessFlowTemplateId' }]);
  }
  return template;
}

/**
 * The values to write: the request's, then the template's for properties the request does not name (template
 * values of properties deleted since are dropped). Request values keep their indexes, so pointers stay right.
 */
async function mergedValues(
  trx: Knex,
  organizationId: string,
  given: PropertyValueInput[],
  template: TemplateRow | null,
) {
  if (!template) return given;
  const named = new Set(given.map((v) => v.propertyId));
  const fromTemplate = (template.properties ?? []).filter((v) => !named.has(v.propertyId));
  if (fromTemplate.length === 0) return given;
  const existing = new Set(
    (
      await trx('custom_properties')
        .where({ organization_id: organizationId, scope: SCOPES.businessFlow })
        .whereIn(
          'id',
          fromTemplate.map((v) => v.propertyId),
        )
        .select('id')
    ).map((r: { id: string }) => r.id),
  );
  return [
    ...given,
    ...fromTemplate
      .filter((v) => existing.has(v.propertyId))
      .map((v) => ({ propertyId: v.propertyId, value: v.value })),
  ];
}

/** Creates a business flow in a workspace (from scratch or from a template); returns its id. */
export async function createBusinessFlow(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext | null,
  workspaceId: string,
  input: FlowCreateInput,
): Promise<{ id: string }> {
  const access = await workspaceAccess(trx, principal, workspaceId);
  assertCanEdit(access);
  // Drafts are the owner organization's own (partners never see one), so only its editors start one.
  if (input.draft && !access.isOwnerOrganization)
    throw new AppError('FORBIDDEN', { pointer: '/data/attributes/draft' });
  const organizationId = access.ownerOrganizationId;
  const template = await templateOf(trx, access, input.businessFlowTemplateId);
  const name = input.name ?? template?.name;
  if (!name)
    throw AppError.invalid([
      { code: 'VALIDATION_FAILED', pointer: '/data/attributes/name', detail: 'name is required' },
    ]);
  await assertClientMayWrite(trx, access, input.properties ?? []);
  await assertSystemLinkIdFree(trx, organizationId, input.systemLinkId);
  const now = deps.clock.now();
  const [flow] = await uniquely(
    () =>
      trx('business_flows')
        .insert({
          organization_id: organizationId,
          workspace_id: workspaceId,
          system_link_id: input.systemLinkId || null,
          name,
          comment: input.comment !== undefined ? input.comment : (template?.comment ?? null),
          auto_complete: input.autoComplete ?? template?.auto_complete ?? true,
          business_flow_template_id: template?.id ?? null,
          status: input.draft ? 'draft' : 'in_progress',
          created_by: principal.userId,
          created_at: now,
          updated_at: now,
        })
        .returning('id'),
    UNIQUE_FLOW,
  );
  const values = await mergedValues(trx, organizationId, input.properties ?? [], template);
  const { changed } = await writePropertyValues(trx, {
    organizationId,
    targetType: 'business_flow',
    targetId: flow.id,
    values,
    now,
    complete: true,
  });
  await logFlowChange(
    deps,
    trx,
    { userId: principal.userId, organizationId: principal.organizationId, req },
    { id: flow.id, organization_id: organizationId },
    'business_flow.created',
    {
      name,
      systemLinkId: input.systemLinkId ?? null,
      workspaceId,
      businessFlowTemplateId: template?.id ?? null,
      draft: Boolean(input.draft),
      properties: changed.map((c) => ({ name: c.name, value: c.after })),
    },
  );
  return { id: flow.id as string };
}
