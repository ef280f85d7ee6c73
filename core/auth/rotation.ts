import type { Knex } from 'knex';
import { hashOpaqueToken, openSuccessor, sealSuccessor } from './tokens.ts';

/**
 * How long a rotated refresh token still answers with the pair its rotation issued. Two tabs (or a retried request)
 * that send the same token at once would otherwise look like a stolen token and end the session; 30 s covers such
 * races on a slow connection, while a token replayed later is still caught as reuse.
 */
export const ROTATION_GRACE_MS = 30_000;
/** Rotations a grace answer follows to the live token: racing tabs make one or two within the window. */
const MAX_GRACE_HOPS = 5;

/** The columns of a refresh_tokens row that the grace window reads. */
export interface RotatedRow {
  id: string;
  successor_id: string | null;
  successor_sealed: Buffer | null;
}

/** Whether a token rotated at `rotatedAt` may still be answered with its successor. */
export function withinGrace(rotatedAt: Date, now: Date): boolean {
  return now.getTime() - rotatedAt.getTime() < ROTATION_GRACE_MS;
}

/**
 * Marks a token rotated and keeps its successor on its row, sealed under a key derived from the rotated token: the
 * database alone (or a backup) never yields a usable refresh token.
 */
export async function markRotated(
  trx: Knex.Transaction,
  rotated: { id: string; token: string },
  successor: { id: string; token: string },
  now: Date,
): Promise<void> {
  await trx('refresh_tokens')
    .where({ id: rotated.id })
    .update({
      rotated_at: now,
      successor_id: successor.id,
      successor_sealed: sealSuccessor(rotated.token, rotated.id, successor.token),
    });
}

/**
 * Follows a rotated token's successors, each opened with the token before it, to the family's live refresh token.
 * Null (so: reuse) when a link is missing, wiped or does not open. Answering the live token rather than refusing
 * when the successor was rotated too keeps a third racing tab signed in; the window still bounds it to 30 s after
 * the presented token's rotation.
 */
export async function liveSuccessor(trx: Knex.Transaction, rotated: RotatedRow, presented: string) {
  let row = rotated;
  let secret = presented;
  for (let hops = 0; hops < MAX_GRACE_HOPS; hops += 1) {
    if (!row.successor_id || !row.successor_sealed) return null;
    const next = openSuccessor(secret, row.id, row.successor_sealed);
    if (next === null) return null;
    const successor = await trx('refresh_tokens')
      .where({ id: row.successor_id })
      .forUpdate()
      .first('id', 'token_hash', 'rotated_at', 'successor_id', 'successor_sealed');
    if (!successor || successor.token_hash !== hashOpaqueToken(next)) return null;
    if (!successor.rotated_at) return next;
    row = successor;
    secret = next;
  }
  return null;
}

/**
 * Wipes the sealed successors of a family whose window has passed (or all of them, for an ended family). The grace
 * check ignores them anyway; this keeps them from lying around.
 */
export async function wipeSealedSuccessors(knex: Knex, sessionId: string, rotatedBefore?: Date): Promise<void> {
  const query = knex('refresh_tokens').where({ session_id: sessionId }).whereNotNull('successor_sealed');
  if (rotatedBefore) query.where('rotated_at', '<=', rotatedBefore);
  await query.update({ successor_sealed: null });
}
