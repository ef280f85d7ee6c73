/*
 * Long-term (B-LTA) documents: before the last document timestamp's TSA certificate expires, the document gets fresh
 * validation data and a new document timestamp (an incremental update stored as a new version, kind 'ltv'). The
 * service runs the due renewals every hour; administrators can run them at once and read a re-verification report.
 * A renewal that would not move the deadline is recorded once and stalls the row (stalled_at): the hourly run skips
 * it, an administrator's run tries it again, a successful renewal clears it. A renewal extends the document (PDF
 * work, revocation fetches, the TSA call) with no database transaction open and records the result in a short one
 * (DESIGN.md "Untrusted input and CPU work").
 */
import { recordUsage } from '../usage/counters.ts';
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import { exclusively } from '../../db/advisory-lock.ts';
import { AppError } from '../../http/errors.ts';
import type { VerificationReport } from '../../signing/types.ts';
import type { StoredBlob } from '../../files/blob-store.ts';
import { type DocumentVersionRow, latestVersion } from '../../files/scan.ts';
import { extendToLta } from '../../signing/pades.ts';
import { storeRevision } from './revisions.ts';

interface LongTermRow {
  document_id: string;
  organization_id: string;
  last_timestamp_at: Date;
  timestamp_not_after: Date;
  next_renewal_at: Date;
  renewal_failures: number;
  last_error: string | null;
  stalled_at: Date | null;
}

/** Renewals made in all for one document when signers keep storing newer versions of it first. */
const MAX_RENEWAL_ATTEMPTS = 3;

/** A renewal made on one version: its new timestamp's deadline, the schedule after it, whether that moves. */
interface Renewal {
  base: DocumentVersionRow;
  notAfter: Date;
  schedule: ReturnType<typeof scheduleOf>;
  effective: boolean;
  /** The extended PDF in the file store (blob first); only an effective renewal is stored. */
  blob: StoredBlob | null;
}

/**
 * Extends `base` to B-LTA with no transaction open (PDF work in the worker pool, revocation fetches, the TSA call),
 * and writes the result to the file store when it moves the deadline `row` has.
 */
async function extendVersion(deps: CoreDeps, row: LongTermRow, base: DocumentVersionRow): Promise<Renewal> {
  const pdf = new Uint8Array(await deps.files.read(base.sha256));
  const renewed = await extendToLta(pdf, deps.signing.tsa, deps.signing.revocation, deps.pdfWork);
  const now = deps.clock.now();
  const schedule = scheduleOf(deps, renewed.genTime, renewed.notAfter, now);
  const effective =
    schedule.next_renewal_at.getTime() > new Date(row.next_renewal_at).getTime() &&
    schedule.next_renewal_at.getTime() > now.getTime();
  const blob = effective ? await deps.files.put(Buffer.from(renewed.pdf)) : null;
  return { base, notAfter: renewed.notAfter, schedule, effective, blob };
}

/**
 * Records a renewal in one short transaction. Returns { error } when done (null, or the stall message of an
 * ineffective renewal), or { newer } when the document got a newer version meanwhile (nothing written: extend that
 * one). A row renewed or rescheduled meanwhile (another run, a new long-term signature) needs nothing more.
 */
async function recordRenewal(
  deps: CoreDeps,
  seen: LongTermRow,
  renewal: Renewal,
): Promise<{ error: string | null } | { newer: DocumentVersionRow }> {
  const documentId = seen.document_id;
  return deps.knex.transaction(async (trx) => {
    // The document before the schedule row: the order signing locks them in, so the two never deadlock.
    const document = await trx('documents').where({ id: documentId }).forUpdate().first('id');
    const row = (await trx('long_term_documents').where({ document_id: documentId }).forUpdate().first()) as
      LongTermRow | undefined;
    if (!document || !row) return { error: null };
    if (new Date(row.next_renewal_at).getTime() !== new Date(seen.next_renewal_at).getTime()) return { error: null };
    const now = deps.clock.now();
    if (!renewal.effective) return { error: await recordIneffective(deps, trx, row, renewal.notAfter, now) };
    const latest = await latestVersion(trx, documentId);
    if (latest.id !== renewal.base.id || latest.sha256 !== renewal.base.sha256) return { newer: latest };
    const stored = await storeRevision(deps, trx, renewal.base, renewal.blob!, {
      kind: 'ltv',
      padesLevel: 'B-LTA',
      uploadedBy: null,
      detail: 'long-term renewal',
    });
    await trx('long_term_documents').where({ document_id: documentId }).update(renewal.schedule);
    await recordUsage(trx, row.organization_id, 'timestamps', 1, now);
    await deps.oplog.append(trx, null, {
      action: 'document.long_term_renewed',
      organizationId: row.organization_id,
      targetType: 'document',
      targetId: document.id,
      details: {
        version: stored.version,
        sha256: stored.sha256,
        timestampNotAfter: renewal.notAfter.toISOString(),
      },
    });
    return { error: null };
  });
}

/**
 * Renews one document: the slow part with no transaction open, the record in a short one (signing again on a newer
 * version a signer stored meanwhile, at most MAX_RENEWAL_ATTEMPTS times). Returns the error message when it failed
 * (recorded on the row).
 */
async function renewOne(deps: CoreDeps, documentId: string): Promise<string | null> {
  try {
    const row = (await deps.knex('long_term_documents').where({ document_id: documentId }).first()) as
      LongTermRow | undefined;
    if (!row) return null;
    let version = await latestVersion(deps.knex, documentId);
    for (let attempt = 1; ; attempt++) {
      const result = await recordRenewal(deps, row, await extendVersion(deps, row, version));
      if ('error' in result) return result.error;
      if (attempt >= MAX_RENEWAL_ATTEMPTS) {
        throw new AppError('UPDATED_BY_ANOTHER_USER', {
          detail: `the document got a newer version during each of ${MAX_RENEWAL_ATTEMPTS} renewals`,
        });
      }
      version = result.newer;
    }
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    await deps
      .knex('long_term_documents')
      .where({ document_id: documentId })
      .update({
        renewal_failures: deps.knex.raw('renewal_failures + 1'),
        last_error: message,
        updated_at: deps.clock.now(),
      });
    deps.logger.warn({ err: error, documentId }, 'long-term renewal failed');
    return message;
  }
}

/**
 * A renewal whose new timestamp would not move the deadline (its TSA certificate expires no later than the last
 * one's, or so soon the renewal would be due at once) protects nothing: the revision is not stored, the failure is
 * recorded once and the row is stalled, so the hourly run does not repeat it until someone acts.
 */
async function recordIneffective(
  deps: CoreDeps,
  trx: Knex.Transaction,
  row: LongTermRow,
  notAfter: Date,
  now: Date,
): Promise<string> {
  const message =
    `RENEWAL_INEFFECTIVE: the new timestamp's TSA certificate expires ${notAfter.toISOString()}, ` +
    `no later than before`;
  await trx('long_term_documents')
    .where({ document_id: row.document_id })
    .update({ renewal_failures: row.renewal_failures + 1, last_error: message, stalled_at: now, updated_at: now });
  await deps.oplog.append(trx, null, {
    action: 'document.long_term_renewal_failed',
    organizationId: row.organization_id,
    targetType: 'document',
    targetId: row.document_id,
    details: {
      error: 'RENEWAL_INEFFECTIVE',
      timestampNotAfter: notAfter.toISOString(),
      previousTimestampNotAfter: new Date(row.timestamp_not_after).toISOString(),
    },
  });
  deps.logger.warn({ documentId: row.document_id, notAfter }, 'long-term renewal stalled: deadline does not move');
  return message;
}

/** The row's schedule after a (new) document timestamp. */
export function scheduleOf(deps: CoreDeps, timestampAt: Date, notAfter: Date, now: Date) {
  const margin = deps.config.signing.renewalMarginDays * 24 * 3600_000;
  return {
    last_timestamp_at: timestampAt,
    timestamp_not_after: notAfter,
    next_renewal_at: new Date(notAfter.getTime() - margin),
    renewal_failures: 0,
    last_error: null,
    stalled_at: null,
    updated_at: now,
  };
}

/** Renews every due document (of one organization, or all); returns what was renewed and what failed. */
export async function renewDue(
  deps: CoreDeps,
  organizationId: string | null,
): Promise<{ renewed: string[]; failed: { documentId: string; error: string }[] }> {
  const query = deps
    .knex('long_term_documents')
    .where('next_renewal_at', '<=', deps.clock.now())
    .orderBy('next_renewal_at')
    .limit(500)
    .pluck('document_id');
  // The hourly run skips stalled rows (their failure is already recorded); an administrator's run tries them again.
  if (organizationId) query.where({ organization_id: organizationId });
  else query.whereNull('stalled_at');
  const due = (await query) as string[];
  if (due.length > 0) await deps.signing.warm();
  const result = { renewed: [] as string[], failed: [] as { documentId: string; error: string }[] };
  for (const documentId of due) {
    const error = await renewOne(deps, documentId);
    if (error) result.failed.push({ documentId, error });
    else result.renewed.push(documentId);
  }
  return result;
}

/** Re-verifies each long-term document's latest version and records the verdict; soonest renewal first. */
export async function longTermReport(deps: CoreDeps, db: Knex, organizationId: string) {
  const rows = (await db('long_term_documents as l')
    .join('documents as d', 'd.id', 'l.document_id')
    .where('l.organization_id', organizationId)
    .orderBy('l.next_renewal_at')
    .select('l.*', 'd.name as document_name')) as (LongTermRow & { document_name: string })[];
  const data = [];
  for (const row of rows) {
    const version = await latestVersion(db, row.document_id);
    let report: VerificationReport | null = null;
    try {
      report = await deps.signing.verify(new Uint8Array(await deps.files.read(version.sha256)));
    } catch (error) {
      // One document over the verification budget is reported as not valid; the others are still listed.
      if (!(error instanceof AppError)) throw error;
      deps.logger.warn({ err: error, documentId: row.document_id }, 'long-term document could not be verified');
    }
    const valid = report?.verdict === 'valid';
    await db('long_term_documents')
      .where({ document_id: row.document_id })
      .update({ last_verified_at: deps.clock.now(), last_verified_valid: valid });
    data.push({
      type: 'LongTermDocument' as const,
      id: row.document_id,
      attributes: {
        documentName: row.document_name,
        version: version.version,
        valid,
        signatures: report?.signatures.length ?? 0,
        lastTimestampAt: new Date(row.last_timestamp_at).toISOString(),
        timestampNotAfter: new Date(row.timestamp_not_after).toISOString(),
        nextRenewalAt: new Date(row.next_renewal_at).toISOString(),
        renewalFailures: row.renewal_failures,
        lastError: row.last_error,
      },
    });
  }
  return { data };
}

/** Runs the due renewals every hour while the service runs workers, in one worker process at a time. */
export function startRenewalTimer(deps: CoreDeps, everyMs = 3600_000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    // Every worker process has this timer; one of them renews at a time (a renewal costs a TSA timestamp).
    exclusively(deps.knex, 'long-term-renewals', () => renewDue(deps, null))
      .catch((error) => deps.logger.error({ err: error }, 'long-term renewal run failed'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
