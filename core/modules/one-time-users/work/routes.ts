/*
 * The guest's work on their business flow (operations tagged one-time-users under /onetime, `guest` security):
 * the flow with the documents carrying their tasks, the documents' files, and the task steps. Every operation
 * answers 403 ONE_TIME_TERMS_REQUIRED before the terms and 404 for anything outside the guest's documents.
 */
import { perUser } from '../../../access/rate-limits.ts';
import type { ApiRouter } from '../../../contract/router.ts';
import type { CoreDeps } from '../../../deps.ts';
import { completionCertificate } from '../../documents/completion-certificate.ts';
import { documentFile } from '../../documents/download.ts';
import { taskBody } from '../../tasks/resources.ts';
import { oneTimeBusinessFlowBody } from './business-flow.ts';
import { gate, remandAsGuest, requestGuestSigningCode, runGuestTask, signAsGuest } from './steps.ts';

export function oneTimeWorkRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex } = deps;

  api.guestOperation('getOneTimeBusinessFlow', {}, async ({ guest, params }) => {
    await gate(deps, guest);
    return { body: await oneTimeBusinessFlowBody(deps, guest, params.businessFlowId) };
  });

  api.guestOperation('downloadOneTimeDocument', {}, async ({ guest, params }) => {
    await gate(deps, guest);
    const { stream, headers } = await documentFile(knex, deps.files, guest, params.documentId, undefined);
    return { body: stream, headers };
  });

  api.guestOperation(
    'downloadOneTimeCompletionCertificate',
    { rateLimit: [perUser('verificationsPerUser')] },
    async ({ guest, params }) => {
      await gate(deps, guest);
      const { body, headers } = await completionCertificate(deps, guest, params.documentId);
      return { body, headers };
    },
  );

  for (const [operationId, action] of [
    ['approveOneTimeTask', 'approve'],
    ['readOneTimeTask', 'read'],
  ] as const) {
    api.guestOperation(operationId, {}, async ({ guest, params, body, req }) => {
      await runGuestTask(deps, guest, req, params.taskId, action, body.data.attributes);
      return { body: await taskBody(knex, guest, params.taskId) };
    });
  }

  api.guestOperation('remandOneTimeDocument', {}, async ({ guest, params, body, req }) => {
    await remandAsGuest(deps, guest, req, params.taskId, body.data.attributes);
    return { body: await taskBody(knex, guest, params.taskId) };
  });

  // Each request mails a code; wrong codes are also limited per guest (and lock them after 5).
  api.guestOperation(
    'requestOneTimeSigningCode',
    { rateLimit: [perUser('signingCodePerUser')] },
    async ({ guest, params, req }) => {
      const sent = await requestGuestSigningCode(deps, guest, req, params.taskId);
      return {
        status: 202,
        body: {
          data: {
            type: 'SigningCode' as const,
            attributes: {
              channel: sent.channel,
              destination: sent.destination,
              expiresAt: sent.expiresAt.toISOString(),
            },
          },
        },
      };
    },
  );

  api.guestOperation(
    'signOneTimeTask',
    { rateLimit: [perUser('signingFailuresPerUser')] },
    async ({ guest, params, body, req }) => {
      await signAsGuest(deps, guest, req, params.taskId, body.data.attributes);
      return { body: await taskBody(knex, guest, params.taskId) };
    },
  );
}
