/*
 * Two-factor codes for business-operator sign tasks: 6 digits, valid 10 minutes, sent by SMS (Japanese mobile
 * numbers only) or e-mail; a new request replaces the previous code. Five wrong codes in a row lock the user's
 * signing for 15 minutes. Codes are stored as HMACs under the master key, never in clear.
 * A one-time user gets codes by e-mail only, at the address they proved; their wrong codes count on
 * one_time_users.code_failures, shared with their address codes (one lock for both).
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { mobileNumber } from '../../signing/sms.ts';
import type { DocumentActor } from '../documents/model.ts';
import { isGuestCaller, type TaskCaller } from '../tasks/model.ts';
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

/** Where a caller's codes and wrong-code count live: a user, or a one-time user. */
interface CodeHolder {
  table: 'users' | 'one_time_users';
  id: string;
  /** The signing_codes column naming the holder. */
  column: 'user_id' | 'one_time_user_id';
  failures: 'signing_code_failures' | 'code_failures';
  lockedUntil: 'signing_locked_until' | 'code_locked_until';
}

function holderOf(caller: TaskCaller): CodeHolder {
  return isGuestCaller(caller)
    ? {
        table: 'one_time_users',
        id: caller.oneTimeUserId,
        column: 'one_time_user_id',
        failures: 'code_failures',
        lockedUntil: 'code_locked_until',
      }
    : {
        table: 'users',
        id: caller.userId,
        column: 'user_id',
        failures: 'signing_code_failures',
        lockedUntil: 'signing_locked_until',
      };
}

interface SignerRow {
  id: string;
  name: string;
  email: string;
  locale: 'ja' | 'en';
  mobile_phone?: string | null;
  failures: number;
  locked_until: Date | null;
}

async function lockedHolder(trx: Knex.Transaction, holder: CodeHolder): Promise<SignerRow> {
  const row = await trx(holder.table).where({ id: holder.id }).forUpdate().first();
  return { ...row, failures: row[holder.failures], locked_until: row[holder.lockedUntil] } as SignerRow;
}

function assertNotLocked(user: SignerRow, now: Date): void {
  if (user.locked_until && user.locked_until.getTime() > now.getTime()) {
    const minutes = Math.ceil((user.locked_until.getTime() - now.getTime()) / 60_000);
    throw new AppError('SIGNING_CODE_LOCKED', { params: { minutes } });
  }
}

/** The log's actor of a code event: the user, or (user null) the one-time user named in the details. */
function actorOf(caller: TaskCaller) {
  return isGuestCaller(caller)
    ? { actorUserId: null, guest: { oneTimeUserId: caller.oneTimeUserId, oneTimeUserEmail: caller.email } }
    : { actorUserId: caller.userId, guest: {} };
}

export async function requestSigningCode(
  deps: CoreDeps,
  trx: Knex.Transaction,
  caller: TaskCaller,
  actor: DocumentActor,
  taskId: string,
): Promise<{ channel: 'sms' | 'email'; destination: string; expiresAt: Date }> {
  const step = await lockStep(trx, caller, taskId);
  await assertRunnable(trx, caller, step);
  const { task, document } = step;
  if (task.type !== 'sign') throw new AppError('TASK_TYPE_MISMATCH');
  const channel = task.two_factor as 'none' | 'sms' | 'email';
  if (channel === 'none') throw new AppError('VALIDATION_FAILED', { detail: 'this sign task asks for no code' });
  const holder = holderOf(caller);
  const user = await lockedHolder(trx, holder);
  const now = deps.clock.now();
  assertNotLocked(user, now);
  const destination = channel === 'sms' ? mobileNumber(user.mobile_phone ?? null) : user.email;
  if (!destination) throw new AppError('SIGNING_CODE_SMS_NUMBER_INVALID');
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(now.getTime() + CODE_VALIDITY_MINUTES * 60_000);
  const { organizationId } = caller;
  const userId = holder.table === 'users' ? user.id : null;
  await trx('signing_codes')
    .where({ [holder.column]: user.id, task_id: task.id })
    .whereNull('consumed_at')
    .delete();
  await trx('signing_codes').insert({
    organization_id: organizationId,
    [holder.column]: user.id,
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
      organizationId,
      userId,
    });
  } else {
    await deps.mailer.send(trx, {
      kind: 'signing-code',
      to: destination,
      locale: user.locale,
      params: { userName: user.name, code, documentName: document.name, expiresAt: expiresAt.toISOString() },
      organizationId,
      userId,
    });
  }
  const { actorUserId, guest } = actorOf(caller);
  await deps.oplog.append(trx, actor.req, {
    action: 'signing.code_sent',
    organizationId,
    actorUserId,
    targetType: 'task',
    targetId: task.id,
    details: { channel, destination: maskDestination(channel, destination), ...guest },
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
  caller: TaskCaller,
  taskId: string,
  code: string | undefined,
): Promise<{ codeId: string } | { refusal: AppError }> {
  const holder = holderOf(caller);
  const user = await lockedHolder(trx, holder);
  const now = deps.clock.now();
  try {
    assertNotLocked(user, now);
  } catch (error) {
    return { refusal: error as AppError };
  }
  if (!code) return { refusal: new AppError('SIGNING_CODE_REQUIRED', { pointer: '/data/attributes/code' }) };
  const row = await trx('signing_codes')
    .where({ [holder.column]: holder.id, task_id: taskId })
    .whereNull('consumed_at')
    .orderBy('created_at', 'desc')
    .first();
  if (!row) return { refusal: new AppError('SIGNING_CODE_INVALID', { pointer: '/data/attributes/code' }) };
  if (new Date(row.expires_at).getTime() <= now.getTime()) {
    return { refusal: new AppError('SIGNING_CODE_EXPIRED', { pointer: '/data/attributes/code' }) };
  }
  const matches = timingSafeEqual(Buffer.from(codeHash(deps, taskId, code)), Buffer.from(row.code_hash as string));
  const holderRow = trx(holder.table).where({ id: holder.id });
  if (matches) {
    await holderRow.update({ [holder.failures]: 0 });
    return { codeId: row.id as string };
  }
  await trx('signing_codes').where({ id: row.id }).increment('attempts', 1);
  const failures = user.failures + 1;
  if (failures >= CODE_MAX_FAILURES) {
    const until = new Date(now.getTime() + CODE_LOCK_MINUTES * 60_000);
    await holderRow.update({ [holder.failures]: 0, [holder.lockedUntil]: until });
    const { actorUserId, guest } = actorOf(caller);
    await deps.oplog.append(trx, null, {
      action: 'signing.locked',
      organizationId: row.organization_id,
      actorUserId,
      targetType: holder.table === 'users' ? 'user' : 'one_time_user',
      targetId: holder.id,
      details: { until: until.toISOString(), reason: 'signing-code', ...guest },
    });
    return { refusal: new AppError('SIGNING_CODE_LOCKED', { params: { minutes: CODE_LOCK_MINUTES } }) };
  }
  await holderRow.update({ [holder.failures]: failures });
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
