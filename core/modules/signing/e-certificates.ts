/*
 * Users' own e-certificates (PKCS#12) and their agents. The private key is kept as an AES-256-GCM envelope under
 * the master key and the PIN (the PKCS#12 password) as an argon2 hash: every signature asks for the PIN again, and
 * five wrong PINs lock the certificate for 15 minutes. Statuses: not registered, valid, near expiry (30 days),
 * expired, invalid (revoked by its issuer, or not yet valid). The revocation status is checked (CRL or OCSP of the
 * issuer) at registration, where a revoked certificate is refused, and before every signature, where a revocation
 * found is recorded on the row.
 */
import { createHash, X509Certificate } from 'node:crypto';
import type { Knex } from 'knex';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { softwareKey } from '../../signing/keys.ts';
import { readPkcs12 } from '../../signing/pkcs12.ts';
import { revocationRefusal } from '../../signing/revocation.ts';
import type { SignatureRequest } from '../../signing/signature-types.ts';
import type { CertificateStatus } from '../../signing/types.ts';

export const NEAR_EXPIRY_DAYS = 30;
export const PIN_MAX_FAILURES = 5;
export const PIN_LOCK_MINUTES = 15;
export const AGENT_MAXIMUM = 5;

export type ECertificateStatus = 'not_registered' | 'valid' | 'near_expiry' | 'expired' | 'invalid';

export interface ECertificateRow {
  id: string;
  organization_id: string;
  user_id: string;
  certificate: Buffer;
  chain: Buffer[] | null;
  private_key_envelope: Buffer;
  pin_hash: string;
  pin_failures: number;
  pin_locked_until: Date | null;
  subject: string;
  issuer: string;
  serial_number: string;
  fingerprint_sha256: string;
  key_algorithm: 'RSA' | 'ECDSA-P256';
  not_before: Date;
  not_after: Date;
  revoked_at: Date | null;
  revocation_reason: string | null;
  revocation_checked_at: Date | null;
}

type StatusColumns = Pick<ECertificateRow, 'not_before' | 'not_after'> & { revoked_at?: Date | null };

/** Why a certificate's status is invalid: revoked by its issuer, or not valid yet. */
export function invalidReason(row: StatusColumns | undefined, now: Date): 'revoked' | 'not-yet-valid' | null {
  if (!row) return null;
  if (row.revoked_at) return 'revoked';
  if (new Date(row.not_before).getTime() > now.getTime()) return 'not-yet-valid';
  return null;
}

export function certificateStatus(row: StatusColumns | undefined, now: Date): ECertificateStatus {
  if (!row) return 'not_registered';
  const t = now.getTime();
  if (invalidReason(row, now)) return 'invalid';
  const notAfter = new Date(row.not_after).getTime();
  if (notAfter <= t) return 'expired';
  if (notAfter - t <= NEAR_EXPIRY_DAYS * 24 * 60 * 60 * 1000) return 'near_expiry';
  return 'valid';
}

export function eCertificateResource(row: ECertificateRow | undefined, now: Date) {
  return {
    type: 'ECertificate' as const,
    id: row?.id ?? null,
    attributes: {
      status: certificateStatus(row, now),
      invalidReason: invalidReason(row, now),
      revokedAt: row?.revoked_at ? new Date(row.revoked_at).toISOString() : null,
      revocationReason: row?.revocation_reason ?? null,
      revocationCheckedAt: row?.revocation_checked_at ? new Date(row.revocation_checked_at).toISOString() : null,
      subject: row?.subject ?? null,
      issuer: row?.issuer ?? null,
      serialNumber: row?.serial_number ?? null,
      keyAlgorithm: row?.key_algorithm ?? null,
      notBefore: row ? new Date(row.not_before).toISOString() : null,
      notAfter: row ? new Date(row.not_after).toISOString() : null,
      pinLocked: !!row?.pin_locked_until && new Date(row.pin_locked_until).getTime() > now.getTime(),
    },
  };
}

export function myECertificate(db: Knex, userId: string): Promise<ECertificateRow | undefined> {
  return db('e_certificates').where({ user_id: userId }).first();
}

const oneLine = (name: string) => name.replace(/\n/g, ', ');

/** Registers (or replaces) the caller's certificate from a PKCS#12 and its password. */
export async function registerECertificate(
  deps: CoreDeps,
  principal: Principal,
  req: RequestContext,
  input: { file: Buffer | null; pin: string; pinConfirmation: string },
): Promise<ECertificateRow> {
  if (!input.file || input.file.length === 0) throw new AppError('E_CERTIFICATE_FILE_INVALID', { pointer: '/file' });
  if (input.pin !== input.pinConfirmation) {
    throw new AppError('E_CERTIFICATE_PIN_MISMATCH', { pointer: '/pinConfirmation' });
  }
  const content = await readPkcs12(input.file, input.pin);
  const certificate = new X509Certificate(content.certificate);
  const now = deps.clock.now();
  if (new Date(certificate.validTo).getTime() <= now.getTime()) throw new AppError('E_CERTIFICATE_EXPIRED');
  // A revoked certificate is refused; an unknown status is accepted (it is checked again before every signature).
  const statuses = await deps.signing.revocation.check([content.certificate, ...content.chain]);
  const refusal = revocationRefusal(statuses, 'user');
  if (refusal?.revoked) throw refusal.error;
  const row = {
    organization_id: principal.organizationId,
    user_id: principal.userId,
    certificate: Buffer.from(content.certificate),
    chain: content.chain.map((c) => Buffer.from(c)),
    private_key_envelope: Buffer.from(deps.signing.secrets.seal(content.privateKeyPkcs8)),
    pin_hash: await hashPassword(input.pin),
    pin_failures: 0,
    pin_locked_until: null,
    subject: oneLine(certificate.subject),
    issuer: oneLine(certificate.issuer),
    serial_number: certificate.serialNumber,
    fingerprint_sha256: createHash('sha256').update(content.certificate).digest('hex'),
    key_algorithm: content.algorithm,
    not_before: new Date(certificate.validFrom),
    not_after: new Date(certificate.validTo),
    revoked_at: null,
    revocation_reason: null,
    revocation_checked_at: refusal ? null : now,
    updated_at: now,
  };
  return deps.knex.transaction(async (trx) => {
    const [saved] = (await trx('e_certificates')
      .insert({ ...row, created_at: now })
      .onConflict('user_id')
      .merge({ ...row, lock_version: trx.raw('e_certificates.lock_version + 1') })
      .returning('*')) as ECertificateRow[];
    await deps.oplog.append(trx, req, {
      action: 'e_certificate.registered',
      organizationId: principal.organizationId,
      actorUserId: principal.userId,
      targetType: 'e_certificate',
      targetId: saved!.id,
      details: { subject: row.subject, serialNumber: row.serial_number, notAfter: row.not_after.toISOString() },
    });
    return saved!;
  });
}

export async function deleteECertificate(deps: CoreDeps, principal: Principal, req: RequestContext): Promise<void> {
  await deps.knex.transaction(async (trx) => {
    const removed = await trx('e_certificates').where({ user_id: principal.userId }).delete().returning('id');
    if (removed.length === 0) throw new AppError('NOT_FOUND');
    await deps.oplog.append(trx, req, {
      action: 'e_certificate.deleted',
      organizationId: principal.organizationId,
      actorUserId: principal.userId,
      targetType: 'e_certificate',
      targetId: removed[0].id,
    });
  });
}

function emailsOf(certificate: X509Certificate): string[] {
  const fromSubject = [...certificate.subject.matchAll(/emailAddress=([^\n,]+)/g)].map((m) => m[1]!.trim());
  const fromSan = [...(certificate.subjectAltName ?? '').matchAll(/email:([^,\s]+)/g)].map((m) => m[1]!);
  return [...fromSubject, ...fromSan];
}

/**
 * Opens `ownerUserId`'s certificate for one signature after checking its status and the PIN. A wrong PIN is
 * counted; the refusal is returned so the caller can commit the count before throwing it.
 */
export async function openECertificate(
  deps: CoreDeps,
  trx: Knex.Transaction,
  ownerUserId: string,
  pin: string | undefined,
): Promise<{ id: string; certificate: NonNullable<SignatureRequest['eCertificate']> } | { refusal: AppError }> {
  const row = (await trx('e_certificates').where({ user_id: ownerUserId }).forUpdate().first()) as
    ECertificateRow | undefined;
  const now = deps.clock.now();
  if (!row) return { refusal: new AppError('E_CERTIFICATE_NOT_REGISTERED') };
  if (row.pin_locked_until && new Date(row.pin_locked_until).getTime() > now.getTime()) {
    return { refusal: new AppError('E_CERTIFICATE_PIN_LOCKED', { params: { minutes: PIN_LOCK_MINUTES } }) };
  }
  const status = certificateStatus(row, now);
  if (row.revoked_at) return { refusal: new AppError('E_CERTIFICATE_REVOKED', { detail: revokedDetail(row) }) };
  if (status === 'expired') return { refusal: new AppError('E_CERTIFICATE_EXPIRED') };
  if (status === 'invalid') return { refusal: new AppError('E_CERTIFICATE_INVALID') };
  if (!pin || !(await verifyPassword(row.pin_hash, pin))) {
    const failures = row.pin_failures + 1;
    const locked = failures >= PIN_MAX_FAILURES;
    await trx('e_certificates')
      .where({ id: row.id })
      .update(
        locked
          ? { pin_failures: 0, pin_locked_until: new Date(now.getTime() + PIN_LOCK_MINUTES * 60_000) }
          : { pin_failures: failures },
      );
    return {
      refusal: locked
        ? new AppError('E_CERTIFICATE_PIN_LOCKED', { params: { minutes: PIN_LOCK_MINUTES } })
        : new AppError('E_CERTIFICATE_PIN_WRONG', {
            pointer: '/data/attributes/pin',
            params: { remaining: PIN_MAX_FAILURES - failures },
          }),
    };
  }
  if (row.pin_failures > 0) await trx('e_certificates').where({ id: row.id }).update({ pin_failures: 0 });
  const owner = await trx('users').where({ id: ownerUserId }).first('id', 'name', 'email');
  const x509 = new X509Certificate(row.certificate);
  const commonName = /CN=([^\n,]+)/.exec(x509.subject)?.[1]?.trim() ?? null;
  return {
    id: row.id,
    certificate: {
      key: softwareKey({
        privateKey: deps.signing.secrets.open(row.private_key_envelope),
        certificate: new Uint8Array(row.certificate),
        chain: (row.chain ?? []).map((c) => new Uint8Array(c)),
      }),
      owner: { userId: owner.id, name: owner.name, email: owner.email },
      commonName,
      emails: emailsOf(x509),
    },
  };
}

function revokedDetail(row: Pick<ECertificateRow, 'subject' | 'revoked_at' | 'revocation_reason'>): string {
  return `${row.subject}: revoked on ${new Date(row.revoked_at!).toISOString()} (${row.revocation_reason ?? 'unspecified'})`;
}

/**
 * Records what a check of the certificate's chain found before a signature: a revocation (on the row and in the
 * operation log, in its own transaction so the refusal that follows does not roll it back), or when it was checked.
 * Nothing is recorded for an unknown status.
 */
export async function recordRevocationCheck(
  deps: CoreDeps,
  actor: { userId: string; req: RequestContext | null },
  eCertificateId: string,
  statuses: readonly CertificateStatus[],
): Promise<void> {
  const now = deps.clock.now();
  const revoked = statuses.find((s) => s.status === 'revoked');
  if (!revoked && statuses.some((s) => s.status === 'unknown')) return;
  await deps.knex.transaction(async (trx) => {
    const row = (await trx('e_certificates').where({ id: eCertificateId }).forUpdate().first()) as
      ECertificateRow | undefined;
    if (!row) return;
    if (!revoked) {
      await trx('e_certificates').where({ id: row.id }).update({ revocation_checked_at: now });
      return;
    }
    await trx('e_certificates')
      .where({ id: row.id })
      .update({
        revoked_at: revoked.revokedAt ?? now,
        revocation_reason: revoked.reason,
        revocation_checked_at: now,
        updated_at: now,
      });
    await deps.oplog.append(trx, actor.req, {
      action: 'e_certificate.revoked',
      organizationId: row.organization_id,
      actorUserId: actor.userId,
      targetType: 'e_certificate',
      targetId: row.id,
      details: {
        subject: row.subject,
        serialNumber: row.serial_number,
        revokedCertificate: revoked.subject,
        revokedAt: (revoked.revokedAt ?? now).toISOString(),
        reason: revoked.reason,
        source: revoked.detail,
      },
    });
  });
}

// ---- agents ----

export async function listAgents(db: Knex, principal: Principal, now: Date) {
  const agents = await db('e_certificate_agents as a')
    .join('users as u', 'u.id', 'a.agent_user_id')
    .where('a.principal_user_id', principal.userId)
    .orderBy('a.created_at')
    .select('a.id', 'a.agent_user_id', 'a.created_at', 'u.name', 'u.login_id');
  const principals = await db('e_certificate_agents as a')
    .join('users as u', 'u.id', 'a.principal_user_id')
    .leftJoin('e_certificates as c', 'c.user_id', 'a.principal_user_id')
    .where('a.agent_user_id', principal.userId)
    .orderBy('u.name')
    .select('u.id', 'u.name', 'c.not_before', 'c.not_after', 'c.revoked_at');
  return {
    data: agents.map(agentResource),
    meta: {
      maximum: AGENT_MAXIMUM,
      principals: principals.map((p) => ({
        userId: p.id as string,
        name: p.name as string,
        certificateStatus: certificateStatus(p.not_after ? p : undefined, now),
      })),
    },
  };
}

export function agentResource(row: Record<string, any>) {
  return {
    type: 'Agent' as const,
    id: row.id as string,
    attributes: {
      userId: row.agent_user_id as string,
      name: row.name as string,
      loginId: row.login_id as string,
      createdAt: new Date(row.created_at).toISOString(),
    },
  };
}

export async function addAgent(deps: CoreDeps, principal: Principal, req: RequestContext, agentUserId: string) {
  const pointer = '/data/attributes/userId';
  if (agentUserId === principal.userId) throw new AppError('AGENT_IS_SELF', { pointer });
  return deps.knex.transaction(async (trx) => {
    const agent = await trx('users')
      .where({ id: agentUserId, organization_id: principal.organizationId })
      .whereNull('deleted_at')
      .first('id', 'name', 'login_id');
    if (!agent) throw new AppError('REFERENCE_NOT_FOUND', { pointer });
    await trx('users').where({ id: principal.userId }).forUpdate().first('id'); // one agent change at a time
    const existing = await trx('e_certificate_agents').where({ principal_user_id: principal.userId });
    if (existing.some((a) => a.agent_user_id === agentUserId)) throw new AppError('AGENT_DUPLICATE', { pointer });
    if (existing.length >= AGENT_MAXIMUM) {
      throw new AppError('AGENT_LIMIT', { pointer, params: { max: AGENT_MAXIMUM } });
    }
    const [row] = await trx('e_certificate_agents')
      .insert({
        organization_id: principal.organizationId,
        principal_user_id: principal.userId,
        agent_user_id: agentUserId,
      })
      .returning('*');
    await deps.oplog.append(trx, req, {
      action: 'e_certificate.agent_added',
      organizationId: principal.organizationId,
      actorUserId: principal.userId,
      targetType: 'user',
      targetId: agentUserId,
      details: { agentName: agent.name },
    });
    return agentResource({ ...row, name: agent.name, login_id: agent.login_id });
  });
}

export async function removeAgent(deps: CoreDeps, principal: Principal, req: RequestContext, agentId: string) {
  await deps.knex.transaction(async (trx) => {
    const removed = await trx('e_certificate_agents')
      .where({ id: agentId, principal_user_id: principal.userId })
      .delete()
      .returning('agent_user_id');
    if (removed.length === 0) throw new AppError('NOT_FOUND');
    await deps.oplog.append(trx, req, {
      action: 'e_certificate.agent_removed',
      organizationId: principal.organizationId,
      actorUserId: principal.userId,
      targetType: 'user',
      targetId: removed[0].agent_user_id,
    });
  });
}

/** An agent may sign with the principal's certificate only while the principal lists them. */
export async function assertAgentOf(db: Knex, agentUserId: string, principalUserId: string): Promise<void> {
  const link = await db('e_certificate_agents')
    .where({ principal_user_id: principalUserId, agent_user_id: agentUserId })
    .first('id');
  if (!link) throw new AppError('AGENT_NOT_AUTHORIZED', { pointer: '/data/attributes/onBehalfOfUserId' });
}
