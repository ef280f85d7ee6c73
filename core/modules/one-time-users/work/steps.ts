/*
 * The guest's task steps (approve, read, remand, signing code, sign): the members' own operations, run with the
 * guest as the task caller (core/modules/tasks/model.ts TaskCaller) and the one-time user as the actor of the
 * history and the log. Nothing here decides a rule of its own beyond the terms gate.
 */
import type { CoreDeps } from '../../../deps.ts';
import type { GuestPrincipal, RequestContext } from '../../../http/context.ts';
import { guestActorOf } from '../../documents/model.ts';
import { requestSigningCode } from '../../signing/codes.ts';
import { type SignTaskInput, signTask } from '../../signing/sign-task.ts';
import { executeTask } from '../../tasks/execute-task.ts';
import { remandDocument } from '../../tasks/remand-document.ts';
import { assertGuestAcceptedTerms } from './terms-gate.ts';

/** Every guest work operation starts here: the terms in force must be accepted. */
export function gate(deps: CoreDeps, guest: GuestPrincipal): Promise<void> {
  return assertGuestAcceptedTerms(deps.knex, guest, deps.clock.now());
}

export async function runGuestTask(
  deps: CoreDeps,
  guest: GuestPrincipal,
  req: RequestContext,
  taskId: string,
  action: 'approve' | 'read',
  input: { lockVersion?: number; comment?: string | null },
): Promise<void> {
  await gate(deps, guest);
  await deps.knex.transaction((trx) => executeTask(deps, trx, guest, guestActorOf(guest, req), taskId, action, input));
}

export async function remandAsGuest(
  deps: CoreDeps,
  guest: GuestPrincipal,
  req: RequestContext,
  taskId: string,
  input: { reason?: string | null; toOrder?: number; lockVersion?: number },
): Promise<void> {
  await gate(deps, guest);
  const attributes = { ...input, toOrder: input.toOrder ?? 1 };
  await deps.knex.transaction((trx) => remandDocument(deps, trx, guest, guestActorOf(guest, req), taskId, attributes));
}

export async function requestGuestSigningCode(
  deps: CoreDeps,
  guest: GuestPrincipal,
  req: RequestContext,
  taskId: string,
) {
  await gate(deps, guest);
  return deps.knex.transaction((trx) => requestSigningCode(deps, trx, guest, guestActorOf(guest, req), taskId));
}

export async function signAsGuest(
  deps: CoreDeps,
  guest: GuestPrincipal,
  req: RequestContext,
  taskId: string,
  input: SignTaskInput,
): Promise<void> {
  await gate(deps, guest);
  await signTask(deps, guest, guestActorOf(guest, req), taskId, input);
}
