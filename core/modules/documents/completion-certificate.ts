/*
 * The completion certificate (合意締結証明書) of a completed document, for members with access
 * (downloadCompletionCertificate) and for the guests holding a task of it (downloadOneTimeCompletionCertificate):
 * the document, its flow and owner organization, the SHA-256 of the final signed PDF, and for each signature of our
 * sign-record ledger the signer, their organization (or "ワンタイムユーザー" with the address they proved), the
 * signature type, the time in JST, how the signer's identity was proved and what our verifier says of that
 * signature in the final PDF; then everyone who approved or read it (name, organization, what and when). Labels are Japanese with English beside them (one certificate serves both parties,
 * whatever language each reads), so it does not depend on the caller's language.
 *
 * The PDF is laid out in the PDF worker pool with Noto Sans JP embedded (core/pdf-work/certificate-pdf.ts) and
 * signed with the business-operator key by our PAdES engine (B-T: a signature timestamp from the TSA), so any
 * verifier (pdfsig, Acrobat) checks it has not changed since we issued it. The signed bytes are kept in memory per
 * final version for a while: downloading the certificate again costs nothing, and a new version (a long-term
 * renewal's timestamp) makes a new certificate.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import { assertScanAllowsUse, latestVersion } from '../../files/scan.ts';
import type { GuestPrincipal, Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import type { CertificateContent, CertificateFact } from '../../pdf-work/certificate-pdf.ts';
import { signPdf } from '../../signing/pades.ts';
import type { SignatureReport, VerificationReport } from '../../signing/types.ts';
import { documentAccess } from '../workspaces/access.ts';
import { contentDisposition, documentFileName, versionVariant } from './download.ts';

export const CERTIFICATE_SUFFIX = '_合意締結証明書';

/** Signature types as the certificate names them. */
const SIGNATURE_TYPES: Record<string, string> = {
  party: '当事者型（電子証明書） / Party signature (own e-certificate)',
  proxy: '代理署名（電子証明書） / Proxy signature (e-certificate)',
  advanced: '高度電子署名 / Advanced electronic signature',
  operator: '立会人型（事業者署名） / Business-operator signature',
  handwritten: '手書きサイン / Handwritten signature',
  'seal-image': '印影 / Seal image',
  timestamp: 'タイムスタンプのみ / Timestamp only',
  'long-term': '長期署名 / Long-term signature',
};
const E_CERTIFICATE_TYPES = new Set(['party', 'proxy', 'advanced']);

/** A time in JST, to the second: 2026-11-28 14:03:09 JST. */
export function jst(at: Date | string): string {
  const shifted = new Date(new Date(at).getTime() + 9 * 3600_000).toISOString();
  return `${shifted.slice(0, 10)} ${shifted.slice(11, 19)} JST`;
}

interface SignerRow {
  signer_user_id: string | null;
  signer_name: string;
  signer_email: string | null;
  signer_one_time_user_id: string | null;
  on_behalf_of_user_id: string | null;
  signature_type: string;
  signed_at: Date;
  timestamp_at: Date | null;
  document_revision: number;
  certificate_subject: string | null;
  organization_name: string | null;
  principal_name: string | null;
  two_factor: 'none' | 'sms' | 'email' | null;
}

/** How the signer proved who they were before the signature was made. */
function identityProof(row: SignerRow): string {
  const guest = row.signer_user_id === null;
  const parts = guest
    ? ['メールアドレスに届いた認証コード / E-mail code at sign-in']
    : ['パスワード＋メール到達確認 / Password and e-mail arrival confirmation'];
  if (row.two_factor === 'sms') parts.push('SMSの認証コード / SMS code');
  if (row.two_factor === 'email') parts.push('メールの認証コード / E-mail code');
  if (E_CERTIFICATE_TYPES.has(row.signature_type)) parts.push('電子証明書とPIN / E-certificate and PIN');
  return parts.join('、');
}

/**
 * Pairs each ledger row with its signature in the final PDF: the next unused one of the right kind whose time is
 * the row's (the claimed time /M of a signature, the token time of a document timestamp).
 */
function reportsOf(rows: SignerRow[], report: VerificationReport): (SignatureReport | null)[] {
  const used = new Set<number>();
  const same = (a: string | null | undefined, b: Date | null) =>
    Boolean(a && b) && Math.abs(new Date(a!).getTime() - new Date(b!).getTime()) < 1000;
  return rows.map((row) => {
    const timestampOnly = row.signature_type === 'timestamp';
    const found = report.signatures.find(
      (s) =>
        !used.has(s.index) &&
        (timestampOnly
          ? s.kind === 'document-timestamp' && same(s.timestamp?.time, row.timestamp_at)
          : s.kind === 'signature' && same(s.claimedTime, row.signed_at)),
    );
    if (!found) return null;
    used.add(found.index);
    return found;
  });
}

/** Our verifier's view of one signature, in a line. */
function verdictOf(signature: SignatureReport | null): string {
  if (!signature) return '署名が見つかりません / Signature not found in the final PDF';
  const status = {
    valid: '有効 / Valid',
    invalid: '無効 / Invalid',
    indeterminate: '検証できません / Indeterminate',
  }[signature.status];
  const details = [
    signature.integrity === 'valid' ? '署名後の改ざんなし / intact' : '改ざんの可能性 / integrity not proven',
  ];
  if (signature.timestamp) {
    details.push(
      signature.timestamp.valid
        ? `タイムスタンプ ${jst(signature.timestamp.time)} / timestamp valid`
        : 'タイムスタンプ無効 / timestamp invalid',
    );
  }
  if (signature.padesLevel) details.push(`PAdES ${signature.padesLevel}`);
  if (signature.chain !== 'trusted') details.push('証明書チェーン未確認 / chain not trusted');
  return `${status}（${details.join('、')}）`;
}

async function signerRows(db: Knex, documentId: string): Promise<SignerRow[]> {
  return (await db('sign_records as r')
    .leftJoin('users as u', 'u.id', 'r.signer_user_id')
    .leftJoin('organizations as o', 'o.id', 'u.organization_id')
    .leftJoin('users as p', 'p.id', 'r.on_behalf_of_user_id')
    .leftJoin('document_versions as v', (j) =>
      j.on('v.document_id', 'r.document_id').andOn('v.version', 'r.document_revision'),
    )
    .leftJoin('tasks as t', 't.id', 'v.task_id')
    .where('r.document_id', documentId)
    .orderBy('r.id')
    .select(
      'r.signer_user_id',
      'r.signer_name',
      'r.signer_email',
      'r.signer_one_time_user_id',
      'r.on_behalf_of_user_id',
      'r.signature_type',
      'r.signed_at',
      'r.timestamp_at',
      'r.document_revision',
      'r.certificate_subject',
      'o.name as organization_name',
      'p.name as principal_name',
      't.two_factor',
    )) as SignerRow[];
}

interface ApproverRow {
  type: 'approve' | 'read';
  completed_at: Date;
  user_name: string | null;
  organization_name: string | null;
  guest_name: string | null;
  guest_email: string | null;
}

/** The approve and read tasks of the document that were done, in the order they were done. */
async function approverRows(db: Knex, documentId: string): Promise<ApproverRow[]> {
  return (await db('tasks as t')
    .leftJoin('users as u', 'u.id', 't.completed_by')
    .leftJoin('organizations as o', 'o.id', 'u.organization_id')
    .leftJoin('one_time_users as g', 'g.id', 't.completed_by_one_time_user_id')
    .where({ 't.document_id': documentId, 't.status': 'completed' })
    .whereIn('t.type', ['approve', 'read'])
    .orderBy([{ column: 't.completed_at' }, { column: 't.id' }])
    .select(
      't.type',
      't.completed_at',
      'u.name as user_name',
      'o.name as organization_name',
      'g.name as guest_name',
      'g.email as guest_email',
    )) as ApproverRow[];
}

function approverFacts(row: ApproverRow): CertificateFact[] {
  const guest = row.user_name === null && row.guest_email !== null;
  return [
    { label: '氏名 / Name', value: (guest ? row.guest_name : row.user_name) ?? '' },
    {
      label: '所属 / Organization',
      value: guest ? `ワンタイムユーザー / One-time user（${row.guest_email}）` : (row.organization_name ?? ''),
    },
    { label: '実行内容 / Action', value: row.type === 'approve' ? '承認 / Approved' : '閲覧 / Read' },
    { label: '実行日時 / Done at (JST)', value: jst(row.completed_at) },
  ];
}

function signerFacts(row: SignerRow, signature: SignatureReport | null): CertificateFact[] {
  const organization =
    row.signer_user_id === null
      ? `ワンタイムユーザー / One-time user（${row.signer_email ?? ''}）`
      : (row.organization_name ?? '');
  const facts: CertificateFact[] = [
    { label: '氏名 / Name', value: row.signer_name },
    { label: '所属 / Organization', value: organization },
    {
      label: '署名種別 / Signature type',
      value: SIGNATURE_TYPES[row.signature_type] ?? row.signature_type,
    },
    { label: '署名日時 / Signed at (JST)', value: jst(row.signed_at) },
  ];
  if (row.timestamp_at) facts.push({ label: 'タイムスタンプ / Timestamp (JST)', value: jst(row.timestamp_at) });
  if (row.on_behalf_of_user_id) {
    facts.push({ label: '代理元 / On behalf of', value: row.principal_name ?? row.on_behalf_of_user_id });
  }
  if (row.certificate_subject && E_CERTIFICATE_TYPES.has(row.signature_type)) {
    facts.push({ label: '証明書 / Certificate', value: row.certificate_subject });
  }
  facts.push({ label: '本人確認の方法 / Identity proof', value: identityProof(row) });
  facts.push({ label: '検証結果 / Verification', value: verdictOf(signature) });
  return facts;
}

const VERDICTS: Record<VerificationReport['verdict'], string> = {
  valid: 'すべての署名が有効 / All signatures valid',
  indeterminate: '検証できない署名があります / Some signatures indeterminate',
  invalid: '無効な署名があります / Some signatures invalid',
  'changed-after-signing': '署名後に変更されています / Changed after signing',
  'no-signatures': '署名がありません / No signatures',
};

/** Everything the certificate says about `document`, whose final version is `pdf`. */
async function certificateContent(
  deps: CoreDeps,
  found: { flow: Record<string, any>; document: Record<string, any> },
  version: { version: number; sha256: string },
  report: VerificationReport,
  issuedAt: Date,
): Promise<CertificateContent> {
  const { knex } = deps;
  const { flow, document } = found;
  const owner = await knex('organizations').where({ id: document.organization_id }).first('name');
  const workspace = await knex('workspaces').where({ id: flow.workspace_id }).first('name');
  const rows = await signerRows(knex, String(document.id));
  const reports = reportsOf(rows, report);
  const approvers = await approverRows(knex, String(document.id));
  return {
    title: '合意締結証明書',
    subtitle: 'Certificate of Completion',
    documentTitle: `合意締結証明書 / Certificate of Completion: ${document.name}`,
    facts: [
      { label: '書類名 / Document', value: String(document.name) },
      { label: '業務フロー / Business flow', value: String(flow.name) },
      { label: 'ワークスペース / Workspace', value: String(workspace?.name ?? '') },
      { label: '依頼元 / Sender', value: String(owner?.name ?? '') },
      { label: '書類ID / Document ID', value: String(document.id) },
      {
        label: '締結日時 / Completed at (JST)',
        value: document.completed_at ? jst(document.completed_at) : '',
      },
      { label: '最終版 / Final version', value: String(version.version) },
      { label: '文書ハッシュ / Document hash (SHA-256)', value: report.sha256 },
      { label: '検証結果 / Verification', value: VERDICTS[report.verdict] },
      { label: '発行日時 / Issued at (JST)', value: jst(issuedAt) },
    ],
    signersTitle:
      approvers.length > 0
        ? `署名者 / Signers（${rows.length}）・承認者と閲覧者 / Approvers and readers（${approvers.length}）`
        : `署名者 / Signers（${rows.length}）`,
    signers: [
      ...rows.map((row, i) => ({
        heading: `${i + 1}. ${row.signer_name}`,
        facts: signerFacts(row, reports[i] ?? null),
      })),
      ...approvers.map((row, i) => ({
        heading: `${rows.length + i + 1}. ${(row.user_name ?? row.guest_name) || ''}`,
        facts: approverFacts(row),
      })),
    ],
    notes: [
      '本証明書は Keiyaku 電子契約サービスが署名済みPDFの最終版を検証して発行し、事業者の電子署名とタイムスタンプを付与したものです。',
      'This certificate was issued by the Keiyaku electronic contract service after verifying the final signed PDF, and carries the service operator’s signature and a timestamp.',
      '文書ハッシュは署名済みPDFの最終版全体のSHA-256です。お手元のファイルのハッシュと照合できます。',
      'The document hash is the SHA-256 of the whole final signed PDF; compare it with the file you hold.',
    ],
  };
}

const CACHE_MAX = 32;
const CACHE_MS = 60 * 60_000;
const caches = new WeakMap<CoreDeps, Map<string, { pdf: Uint8Array; at: number }>>();

/** The signed certificate of one final version, made once and kept for CACHE_MS. */
async function certificateOf(
  deps: CoreDeps,
  found: { flow: Record<string, any>; document: Record<string, any> },
  version: { version: number; sha256: string },
): Promise<Uint8Array> {
  let cache = caches.get(deps);
  if (!cache) caches.set(deps, (cache = new Map()));
  const key = `${found.document.id}:${version.sha256}:${found.document.name}`;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < CACHE_MS) return hit.pdf;

  const finalPdf = new Uint8Array(await deps.files.read(version.sha256));
  const report = await deps.signing.verify(finalPdf);
  const issuedAt = deps.clock.now();
  const content = await certificateContent(deps, found, version, report, issuedAt);
  const unsigned = await deps.pdfWork.run('renderCertificate', { content, createdAt: issuedAt });
  const signed = await signPdf(
    {
      pdf: unsigned,
      key: await deps.signing.operatorKey(),
      level: 'B-T',
      signerName: 'Keiyaku 電子契約サービス',
      reason: '合意締結証明書の発行 / Certificate of completion',
      claimedTime: issuedAt,
      tsa: deps.signing.tsa,
      revocation: deps.signing.revocation,
    },
    deps.pdfWork,
  );
  for (const [k, v] of cache) if (now - v.at >= CACHE_MS) cache.delete(k);
  while (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, { pdf: signed.pdf, at: now });
  return signed.pdf;
}

/**
 * The certificate of a document the caller may see: 404 without access (as every document operation), 409
 * DOCUMENT_NOT_COMPLETED before the document is completed.
 */
export async function completionCertificate(
  deps: CoreDeps,
  caller: Principal | GuestPrincipal,
  documentId: string,
): Promise<{ body: Buffer; headers: Record<string, string> }> {
  const found = await documentAccess(deps.knex, caller, documentId);
  if (found.document.status !== 'completed') throw new AppError('DOCUMENT_NOT_COMPLETED');
  const version = await latestVersion(deps.knex, documentId);
  assertScanAllowsUse(version);
  const pdf = await certificateOf(deps, found, version);
  return {
    body: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength),
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Length': String(pdf.byteLength),
      'Content-Disposition': contentDisposition(
        documentFileName(String(found.document.name), { suffix: CERTIFICATE_SUFFIX }),
      ),
      'Cache-Control': 'private, no-store',
    },
  };
}

/** A completed document's files and where it belongs, for plugins that keep a copy elsewhere (Box). */
export interface CompletedDocumentFiles {
  organizationId: string;
  documentId: string;
  documentName: string;
  workspace: { id: string; name: string };
  businessFlow: { id: string; name: string };
  /** The final signed PDF (`{name}_signed.pdf`, or `{name}.pdf` when nothing was signed into it). */
  signed: { fileName: string; bytes: Uint8Array; sha256: string };
  /** The completion certificate (`{name}_合意締結証明書.pdf`). */
  certificate: { fileName: string; bytes: Uint8Array };
}

/**
 * The files of a completed document without a caller (a job acting for the organization): NOT_FOUND when it does
 * not exist, DOCUMENT_NOT_COMPLETED before completion, and the scan's refusal while a file is unsafe.
 */
export async function completedDocumentFiles(deps: CoreDeps, documentId: string): Promise<CompletedDocumentFiles> {
  const document = await deps.knex('documents').where({ id: documentId }).first();
  if (!document) throw new AppError('NOT_FOUND');
  if (document.status !== 'completed') throw new AppError('DOCUMENT_NOT_COMPLETED');
  const flow = await deps.knex('business_flows').where({ id: document.business_flow_id }).first();
  const workspace = await deps.knex('workspaces').where({ id: flow.workspace_id }).first('id', 'name');
  const version = await latestVersion(deps.knex, documentId);
  assertScanAllowsUse(version);
  const bytes = new Uint8Array(await deps.files.read(version.sha256));
  const certificate = await certificateOf(deps, { flow, document }, version);
  return {
    organizationId: String(flow.organization_id),
    documentId,
    documentName: String(document.name),
    workspace: { id: String(workspace.id), name: String(workspace.name) },
    businessFlow: { id: String(flow.id), name: String(flow.name) },
    signed: {
      fileName: documentFileName(String(document.name), versionVariant(version)),
      bytes,
      sha256: version.sha256,
    },
    certificate: {
      fileName: documentFileName(String(document.name), { suffix: CERTIFICATE_SUFFIX }),
      bytes: certificate,
    },
  };
}
