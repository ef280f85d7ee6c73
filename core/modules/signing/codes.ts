/*
 * Two-factor codes for business-operator sign tasks: 6 digits, valid 10 minutes, sent by SMS (Japanese mobile
 * numbers only) or e-mail; a new request replaces the previous code. Five wrong codes in a row lock the user's
 * signing for 15 minutes. Codes are stored as HMACs under the master key, never in clear.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { mobileNumber } from '../../signing/sms.ts';
import type { DocumentActor } from '../documents/model.ts';
import { assertRunnable, lockStep } from '../tasks/step.ts';

export const CODE_VALIDITY_MINUTES = 10;
export const CODE_MAX_FAILURES = 5;
export const CODE_LOCK_MINUTES = 15;

const codeHash = (deps: CoreDeps, taskId: string, code: string) =>
  createHmac('sha256', deps.config.masterKey).update(`signing-code:${taskId}:${code}`).digest('hex');

/** 090-****-5678 / t***@example.com */
export function maskDestination(channel: 'sms' | 'email', destination: string): string {
  if (channel === 'sms') return `${destination.slice(0, 3)}-****-${destination.slice(-4)}`;
  const [local = '', domain = ''] = destination.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

interface SignerRow {
  id: string;
  name: string;
  email: string;
  locale: 'ja' | 'en';
  mobile_phone: string | null;
  signing_locked_until: Date | null;
  signing_code_failures: number;
}

function assertNotLocked(user: SignerRow, now: Date): void {
  if (user.signing_locked_until && user.signing_locked_until.getTime() > now.getTime()) {
    const minutes = Math.ceil((user.signing_locked_until.getTime() - now.getTime()) / 60_000);
    throw new AppError('SIGNING_CODE_LOCKED', { params: { minutes } });
  }
}

export async function requestSigningCode(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  actor: DocumentActor,
  taskId: string,
): Promise<{ channel: 'sms' | 'email'; destination: string; expiresAt: Date }> {
  const step = await lockStep(trx, principal, taskId);
  await assertRunnable(trx, principal, step);
  const { task, document } = step;
  if (task.type !== 'sign') throw new AppError('TASK_TYPE_MISMATCH');
  const channel = task.two_factor as 'none' | 'sms' | 'email';
  if (channel === 'none') throw new AppError('VALIDATION_FAILED', { detail: 'this sign task asks for no code' });
  const user = (await trx('users').where({ id: principal.userId }).forUpdate().first()) as SignerRow;
  const now = deps.clock.now();
  assertNotLocked(user, now);
  const destination = channel === 'sms' ? mobileNumber(user.mobile_phone) : user.email;
  if (!destination) throw new AppError('SIGNING_CODE_SMS_NUMBER_INVALID');
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(now.getTime() + CODE_VALIDITY_MINUTES * 60_000);
  await trx('signing_codes').where({ user_id: user.id, task_id: task.id }).whereNull('consumed_at').delete();
  await trx('signing_codes').insert({
    organization_id: principal.organizationId,
    user_id: user.id,
    task_id: task.id,
    channel,
    destination,
    code_hash: codeHash(deps, task.id, code),
    expires_at: expiresAt,
    created_at: now,
  });
  const expiry = expiresAt.toISOString().slice(11, 16);
  if (channel === 'sms') {
    await deps.mailer.sendSms(trx, {
      kind: 'signing-code',
      to: destination,
      locale: user.locale,
      params: { code, minutes: String(CODE_VALIDITY_MINUTES), expiry },
      organizationId: principal.organizationId,
      userId: user.id,
    });
  } else {
    await deps.mailer.send(trx, {
      kind: 'signing-code',
      to: destination,
      locale: user.locale,
      params: { userName: user.name, code, documentName: document.name, expiresAt: expiresAt.toISOString() },
      organizationId: principal.organizationId,
      userId: user.id,
    });
  }
  await deps.oplog.append(trx, actor.req, {
    action: 'signing.code_sent',
    organizationId: principal.organizationId,
    actorUserId: user.id,
    targetType: 'task',
    targetId: task.id,
    details: { channel, destination: maskDestination(channel, destination) },
  });
  return { channel, destination: maskDestination(channel, destination), expiresAt };
}

/**
 * Checks the code for the task. Returns the code row's id, or the refusal to throw AFTER the caller commits (so a
 * wrong code is counted even though signing stops).
 */
export async function checkSigningCode(
  deps: CoreDeps,
  trx: Knex.Transaction,
  userId: string,
  taskId: string,
  code: string | undefined,
): Promise<{ codeId: string } | { refusal: AppError }> {
  const user = (await trx('users').where({ id: userId }).forUpdate().first()) as SignerRow;
  const now = deps.clock.now();
  try {
    assertNotLocked(user, now);
  } catch (error) {
    return { refusal: error as AppError };
  }
  if (!code) return { refusal: new AppError('SIGNING_CODE_REQUIRED', { pointer: '/data/attributes/code' }) };
  const row = await trx('signing_codes')
    .where({ user_id: userId, task_id: taskId })
    .whereNull('consumed_at')
    .orderBy('created_at', 'desc')
    .first();
  if (!row) return { refusal: new AppError('SIGNING_CODE_INVALID', { pointer: '/data/attributes/code' }) };
  if (new Date(row.expires_at).getTime() <= now.getTime()) {
    return { refusal: new AppError('SIGNING_CODE_EXPIRED', { pointer: '/data/attributes/code' }) };
  }
  const matches = timingSafeEqual(Buffer.from(codeHash(deps, taskId, code)), Buffer.from(row.code_hash as string));
  if (matches) {
    await trx('users').where({ id: userId }).update({ signing_code_failures: 0 });
    return { codeId: row.id as string };
  }
  await trx('signing_codes').where({ id: row.id }).increment('attempts', 1);
  const failures = user.signing_code_failures + 1;
  if (failures >= CODE_MAX_FAILURES) {
    const until = new Date(now.getTime() + CODE_LOCK_MINUTES * 60_000);
    await trx('users').where({ id: userId }).update({ signing_code_failures: 0, signing_locked_until: until });
    await deps.oplog.append(trx, null, {
      action: 'signing.locked',
      organizationId: row.organization_id,
      actorUserId: userId,
      targetType: 'user',
      targetId: userId,
      details: { until: until.toISOString(), reason: 'signing-code' },
    });
    return { refusal: new AppError('SIGNING_CODE_LOCKED', { params: { minutes: CODE_LOCK_MINUTES } }) };
  }
  await trx('users').where({ id: userId }).update({ signing_code_failures: failures });
  return {
    refusal: new AppError('SIGNING_CODE_INVALID', {
      pointer: '/data/attributes/code',
      params: { remaining: CODE_MAX_FAILURES - failures },
    }),
  };
}

/** Uses the code up inside the signing transaction; a code used meanwhile is SIGNING_CODE_INVALID. */
export async function consumeSigningCode(trx: Knex.Transaction, codeId: string, now: Date): Promise<void> {
  const used = await trx('signing_codes').where({ id: codeId }).whereNull('consumed_at').update({ consumed_at: now });
  if (used === 0) throw new AppError('SIGNING_CODE_INVALID', { pointer: '/data/attributes/code' });
}
