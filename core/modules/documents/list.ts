/* The documents of one business flow the caller can see (listBusinessFlowDocuments), each with its latest version. */
import type { Knex } from 'knex';
import type { DocumentVersionRow } from '../../files/scan.ts';
import type { Principal } from '../../http/context.ts';
import { likePattern, type ListQuery, LIST_COUNT_CAP, pageOf } from '../../http/pagination.ts';
import { flowAccess } from '../workspaces/access.ts';
import { documentSummary } from './detail.ts';
import type { DocumentRow } from './model.ts';

export async function listFlowDocuments(
  db: Knex,
  principal: Principal,
  flowId: string,
  query: ListQuery & { 'filter[q]'?: string; 'filter[systemLinkId]'?: string },
) {
  await flowAccess(db, principal, flowId);
  const scope = db('documents as d').where('d.business_flow_id', flowId).select('d.*');
  if (query['filter[q]']) {
    const pattern = likePattern(query['filter[q]']);
    scope.where((w) => w.whereILike('d.name', pattern).orWhereILike('d.system_link_id', pattern));
  }
  // An ID for system link is unique within one organization: it names the caller's own documents only.
  if (query['filter[systemLinkId]'] !== undefined) {
    scope.where({ 'd.system_link_id': query['filter[systemLinkId]'], 'd.organization_id': principal.organizationId });
  }
  const sortable = { createdAt: 'd.created_at', name: 'd.name', status: 'd.status' };
  const { rows, meta } = await pageOf<DocumentRow>(scope, query, sortable, 'createdAt', 'd.id', {
    countCap: LIST_COUNT_CAP,
    keyset: true,
  });
  const versions = rows.length
    ? ((await db('document_versions')
        .distinctOn('document_id')
        .whereIn(
          'document_id',
          rows.map((r) => r.id),
        )
        .orderBy([{ column: 'document_id' }, { column: 'version', order: 'desc' }])) as DocumentVersionRow[])
    : [];
  const latest = new Map(versions.map((v) => [v.document_id, v]));
  return { data: rows.map((row) => documentSummary(row, latest.get(row.id)!)), meta };
}
