/*
 * How a document looks on the wire: the detail (versions, properties filtered per caller, history, tasks) and the
 * summary the flow's document list shows. Access goes through core/modules/workspaces/access.ts.
 */
import type { Knex } from 'knex';
import type { Principal } from '../../http/context.ts';
import { cleanFileName } from '../../http/file-name.ts';
import type { DocumentVersionRow } from '../../files/scan.ts';
import { taskFieldsOf, taskResource, taskRowsWithNames } from '../tasks/resources.ts';
import { documentAccess, type WorkspaceAccess } from '../workspaces/access.ts';
import type { DocumentRow } from './model.ts';
import { readDocumentProperties } from './properties.ts';

const iso = (value: Date | string) => new Date(value).toISOString();

export function versionResource(row: DocumentVersionRow) {
  return {
    version: row.version,
    fileName: cleanFileName(row.file_name), // names stored before uploads were cleaned may hide a bidi override
    contentType: row.content_type,
    size: Number(row.size_bytes),
    sha256: row.sha256,
    pageCount: row.page_count,
    scanStatus: row.scan_status,
    uploadedAt: iso(row.created_at),
  };
}

/** The summary of a document (lists). */
export function documentSummary(row: DocumentRow, current: DocumentVersionRow) {
  return {
    type: 'Document' as const,
    id: row.id,
    attributes: {
      name: row.name,
      documentType: row.document_type,
      status: row.status,
      systemLinkId: row.system_link_id,
      currentVersion: versionResource(current),
      lockVersion: row.lock_version,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    },
  };
}

async function documentEvents(db: Knex, documentId: string) {
  const rows = (await db('document_events as e')
    .leftJoin('users as u', 'u.id', 'e.actor_user_id')
    .leftJoin('one_time_users as g', 'g.id', 'e.actor_one_time_user_id')
    .where('e.document_id', documentId)
    .orderBy([{ column: 'e.created_at' }, { column: 'e.id' }])
    .select(
      'e.kind',
      'e.reason',
      'e.to_order',
      'e.created_at',
      db.raw('coalesce(u.name, g.name, g.email) as actor_name'),
    )) as Record<string, any>[];
  return rows.map((e) => ({
    kind: e.kind as string,
    reason: e.reason as string | null,
    toOrder: e.to_order as number | null,
    actorName: (e.actor_name as string | null) ?? null,
    at: iso(e.created_at),
  }));
}

/** The document's tasks as the tasks module shows them (the same `executableByMe` rule as "my tasks"). */
async function documentTasks(db: Knex, principal: Principal, documentId: string, scanClean: boolean) {
  const rows = (await taskRowsWithNames(db, principal).where('t.document_id', documentId)) as Record<string, any>[];
  const fields = await taskFieldsOf(
    db,
    rows.map((r) => r.id as string),
  );
  return rows.map((row) => {
    const { id, attributes } = taskResource(row, scanClean, fields.get(row.id) ?? []);
    return { id, ...attributes };
  });
}

/** The full detail of one document the caller may see. */
export async function documentDetail(
  db: Knex,
  principal: Principal,
  found: { access: WorkspaceAccess; flow: Record<string, any>; document: DocumentRow },
) {
  const { access, flow, document } = found;
  const versions = (await db('document_versions')
    .where('document_id', document.id)
    .orderBy('version', 'desc')) as DocumentVersionRow[];
  const current = versions[0]!;
  const summary = documentSummary(document, current);
  return {
    data: {
      ...summary,
      attributes: {
        ...summary.attributes,
        businessFlow: { id: flow.id as string, name: flow.name as string, status: flow.status },
        workspace: { id: access.workspaceId, name: access.workspaceName },
        properties: await readDocumentProperties(db, principal, document, access.canEdit),
        versions: versions.map(versionResource),
        cancelComment: document.cancel_comment,
        currentOrder: document.current_order,
        events: await documentEvents(db, document.id),
        tasks: await documentTasks(db, principal, document.id, current.scan_status === 'clean'),
        canRename: access.isOwnerOrganization && access.canEdit,
        canEdit: access.canEdit,
      },
    },
  };
}

/** Reads the document through the access rule and builds its detail. */
export async function documentBody(db: Knex, principal: Principal, documentId: string) {
  const found = await documentAccess(db, principal, documentId);
  return documentDetail(db, principal, { ...found, document: found.document as DocumentRow });
}
