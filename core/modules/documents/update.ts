/*
 * Changing a document (updateDocument). Rules:
 * - edit rights in the workspace (WORKSPACE_EDIT_NOT_ALLOWED), a flow that is not cancelled (BUSINESS_FLOW_CANCELLED);
 * - only the workspace owner organization renames (403 DOCUMENT_RENAME_OWNER_ONLY) or changes the type and the ID
 *   for system link (403 FORBIDDEN); partners change only properties editable by clients;
 * - a cancelled or completed document keeps its name, type and ID for system link (409 DOCUMENT_NOT_IN_PROGRESS),
 *   but its property values may still be corrected: they are the search keys of the preserved transaction record;
 * - a stale lockVersion is 409 UPDATED_BY_ANOTHER_USER.
 */
import type { Knex } from 'knex';
import { assertLockVersion, lockedRow } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { type PropertyValueInput, writePropertyValues } from '../properties/values.ts';
import { uniquely } from '../users/validation.ts';
import { assertCanEdit, documentAccess } from '../workspaces/access.ts';
import {
  addDocumentEvent,
  DOCUMENT_SYSTEM_LINK_UNIQUE,
  type DocumentActor,
  type DocumentRow,
  type DocumentType,
  logDocumentChange,
} from './model.ts';
import { assertClientMayWrite } from './properties.ts';

export interface DocumentUpdateInput {
  lockVersion: number;
  name?: string;
  documentType?: DocumentType;
  systemLinkId?: string | null;
  properties?: PropertyValueInput[];
}

const at = (field: string) => `/data/attributes/${field}`;

/** The column changes of an update, checked against who the caller is and the document's status. */
function patchOf(document: DocumentRow, input: DocumentUpdateInput, isOwnerOrganization: boolean) {
  const patch: Record<string, unknown> = {};
  if (input.name !== undefined && input.name.trim() !== document.name) patch.name = input.name.trim();
  if (input.documentType !== undefined && input.documentType !== document.document_type) {
    patch.document_type = input.documentType;
  }
  if (input.systemLinkId !== undefined && (input.systemLinkId || null) !== document.system_link_id) {
    patch.system_link_id = input.systemLinkId || null;
  }
  if (!isOwnerOrganization && patch.name !== undefined) {
    throw new AppError('DOCUMENT_RENAME_OWNER_ONLY', { pointer: at('name') });
  }
  for (const [column, field] of [
    ['document_type', 'documentType'],
    ['system_link_id', 'systemLinkId'],
  ] as const) {
    if (!isOwnerOrganization && patch[column] !== undefined) throw new AppError('FORBIDDEN', { pointer: at(field) });
  }
  if (Object.keys(patch).length > 0 && !['draft', 'in_progress', 'remanded'].includes(document.status)) {
    throw new AppError('DOCUMENT_NOT_IN_PROGRESS');
  }
  if (patch.name === '') throw new AppError('VALIDATION_FAILED', { pointer: at('name') });
  return patch;
}

export async function updateDocument(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  actor: DocumentActor,
  documentId: string,
  input: DocumentUpdateInput,
): Promise<void> {
  const { access, flow } = await documentAccess(trx, principal, documentId);
  assertCanEdit(access);
  if (flow.status === 'cancelled') throw new AppError('BUSINESS_FLOW_CANCELLED');
  const key = { id: documentId, organization_id: access.ownerOrganizationId };
  const document = await lockedRow<DocumentRow>(trx, 'documents', key);
  assertLockVersion(document, input.lockVersion);
  const patch = patchOf(document, input, access.isOwnerOrganization);
  const values = input.properties ?? [];
  const pointer = (i: number) => (i < 0 ? at('properties') : at(`properties/${i}/value`));
  await assertClientMayWrite(trx, !access.isOwnerOrganization, values, pointer);
  const now = deps.clock.now();
  await uniquely(
    () =>
      trx('documents')
        .where(key)
        .update({ ...patch, updated_at: now, lock_version: trx.raw('lock_version + 1') }),
    { [DOCUMENT_SYSTEM_LINK_UNIQUE]: { code: 'SYSTEM_LINK_ID_TAKEN', pointer: at('systemLinkId') } },
  );
  const { changed } = await writePropertyValues(trx, {
    organizationId: access.ownerOrganizationId,
    targetType: 'document',
    targetId: documentId,
    values,
    now,
    pointer,
  });
  await addDocumentEvent(trx, document, actor, { kind: 'updated', at: now });
  await logDocumentChange(deps, trx, actor, document, 'document.updated', {
    before: { name: document.name, documentType: document.document_type, systemLinkId: document.system_link_id },
    after: {
      name: patch.name ?? document.name,
      documentType: patch.document_type ?? document.document_type,
      systemLinkId: patch.system_link_id === undefined ? document.system_link_id : patch.system_link_id,
    },
    properties: changed,
  });
}

/**
 * Writes property values of a document on a plugin's behalf, as updateDocument writes them: with `principal`,
 * under that person's rights (edit rights, partners only properties editable by clients); with null, by a rule of
 * the owner organization itself (the AI-OCR "accept above confidence X" setting). The operation log records
 * `document.updated` with `via`; an empty change writes nothing.
 */
export async function writeDocumentProperties(
  deps: CoreDeps,
  trx: Knex.Transaction,
  input: {
    principal: Principal | null;
    req: RequestContext | null;
    documentId: string;
    values: PropertyValueInput[];
    via: string;
    pointer: (index: number) => string;
  },
): Promise<{ changed: { propertyId: string; name: string; before: string | null; after: string | null }[] }> {
  const { principal, documentId, values, pointer } = input;
  let organizationId: string;
  if (principal) {
    const { access, flow } = await documentAccess(trx, principal, documentId);
    assertCanEdit(access);
    if (flow.status === 'cancelled') throw new AppError('BUSINESS_FLOW_CANCELLED');
    await assertClientMayWrite(trx, !access.isOwnerOrganization, values, pointer);
    organizationId = access.ownerOrganizationId;
  } else {
    const row = await trx('documents as d')
      .join('business_flows as f', 'f.id', 'd.business_flow_id')
      .where('d.id', documentId)
      .first('d.organization_id', 'f.status');
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status === 'cancelled') throw new AppError('BUSINESS_FLOW_CANCELLED');
    organizationId = row.organization_id;
  }
  const document = await lockedRow<DocumentRow>(trx, 'documents', { id: documentId, organization_id: organizationId });
  const now = deps.clock.now();
  const { changed } = await writePropertyValues(trx, {
    organizationId,
    targetType: 'document',
    targetId: documentId,
    values,
    now,
    pointer,
  });
  if (changed.length === 0) return { changed };
  await trx('documents')
    .where({ id: documentId })
    .update({ updated_at: now, lock_version: trx.raw('lock_version + 1') });
  const actor: DocumentActor = principal
    ? { userId: principal.userId, organizationId: principal.organizationId, req: input.req }
    : { userId: null, organizationId, req: null };
  await addDocumentEvent(trx, document, actor, { kind: 'updated', at: now });
  await logDocumentChange(deps, trx, actor, document, 'document.updated', { properties: changed, via: input.via });
  return { changed };
}
