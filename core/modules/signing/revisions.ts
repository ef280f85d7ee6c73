/*
 * A revision the signing engine appended (a signature, a document timestamp, long-term validation data) stored as
 * the document's next version: the blob first, then the row. The caller writes the blob with files.put() (which
 * fsyncs it) BEFORE it opens the transaction that records the row, so no disk write waits inside a transaction and
 * a crash in between leaves only an orphan blob for the sweeper. The revision appends only our own bytes to a
 * version that was already scanned clean, so it is recorded clean without a new scan. The caller holds the
 * document's row lock and has checked that `base` is still the latest version.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { StoredBlob } from '../../files/blob-store.ts';
import type { DocumentVersionRow } from '../../files/scan.ts';

/** Records `stored` (a blob already put) as the version after `base`; returns its number and hash. */
export async function storeRevision(
  deps: CoreDeps,
  trx: Knex.Transaction,
  base: DocumentVersionRow,
  stored: StoredBlob,
  revision: {
    kind: 'signature' | 'timestamp' | 'ltv';
    padesLevel: string;
    uploadedBy: string | null;
    taskId?: string;
    signatureType?: string;
    detail: string;
  },
): Promise<{ version: number; sha256: string }> {
  const now = deps.clock.now();
  const version = base.version + 1;
  await trx('document_versions').insert({
    organization_id: base.organization_id,
    document_id: base.document_id,
    version,
    file_name: base.file_name,
    content_type: 'application/pdf',
    size_bytes: stored.size,
    sha256: stored.sha256,
    page_count: base.page_count,
    scan_status: 'clean',
    scan_engine: 'keiyaku-signing',
    scan_detail: `${revision.detail} of version ${base.version}`,
    scanned_at: now,
    uploaded_by: revision.uploadedBy,
    created_at: now,
    kind: revision.kind,
    task_id: revision.taskId ?? null,
    signature_type: revision.signatureType ?? null,
    pades_level: revision.padesLevel,
  });
  return { version, sha256: stored.sha256 };
}
