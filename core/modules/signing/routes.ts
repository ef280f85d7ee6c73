/*
 * Signing routes: sign a task, two-factor codes, signature types, verification reports, the caller's seal images,
 * e-certificate and agents, and e-mail arrival confirmation.
 */
import { perIp, perUser } from '../../access/rate-limits.ts';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { assertScanAllowsUse, latestVersion } from '../../files/scan.ts';
import { UPLOAD_LIMITS } from '../../files/upload-limits.ts';
import { AppError } from '../../http/errors.ts';
import { MultipartRequest } from '../../http/multipart-body.ts';
import type { VerificationReport } from '../../signing/types.ts';
import { documentActorOf } from '../documents/model.ts';
import { taskBody } from '../tasks/resources.ts';
import { documentAccess } from '../workspaces/access.ts';
import { requestSigningCode } from './codes.ts';
import {
  addAgent,
  deleteECertificate,
  eCertificateResource,
  listAgents,
  myECertificate,
  registerECertificate,
  removeAgent,
} from './e-certificates.ts';
import { confirmEmail, requestEmailConfirmation } from './email-confirmation.ts';
import { confirmEmailByMailLink } from './mail-link.ts';
import { createSealImage, deleteSealImage, SEAL_IMAGE_MAXIMUM, sealImageResource } from './seal-images.ts';
import { longTermReport, renewDue } from './long-term.ts';
import { signTask } from './sign-task.ts';

export function verificationBody(report: VerificationReport) {
  const { sha256, ...attributes } = report;
  return { data: { type: 'SignatureVerification' as const, id: sha256, attributes } };
}

async function readForm(body: unknown, place: keyof typeof UPLOAD_LIMITS) {
  if (!(body instanceof MultipartRequest)) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
  return body.read(UPLOAD_LIMITS[place]);
}

export function signingRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex } = deps;
  const signingLimits = { rateLimit: [perUser('signingFailuresPerUser')] };
  const codeLimits = { rateLimit: [perUser('signingCodePerUser')] }; // each request sends an SMS or a mail
  const verificationLimits = { rateLimit: [perUser('verificationsPerUser')] };
  const uploadLimits = { rateLimit: [perUser('uploadsPerUser')] };
  const confirmationMailLimits = { rateLimit: [perUser('confirmationMailPerUser')] };
  const confirmationLinkLimits = { rateLimit: [perIp('confirmationLinkPerIp')] };

  api.operation('signTask', signingLimits, async ({ principal, params, body, req }) => {
    await signTask(deps, principal, documentActorOf(principal, req), params.taskId, body.data.attributes);
    return { body: await taskBody(knex, principal, params.taskId) };
  });

  api.operation('requestSigningCode', codeLimits, async ({ principal, params, req }) => {
    const sent = await knex.transaction((trx) =>
      requestSigningCode(deps, trx, principal, documentActorOf(principal, req), params.taskId),
    );
    return {
      status: 202,
      body: {
        data: {
          type: 'SigningCode' as const,
          attributes: { channel: sent.channel, destination: sent.destination, expiresAt: sent.expiresAt.toISOString() },
        },
      },
    };
  });

  api.operation('listSignatureTypes', async () => ({
    body: {
      data: deps.signatureTypes.list().map((type) => ({
        type: 'SignatureType' as const,
        id: type.code,
        attributes: {
          allowsTwoFactor: type.allowsTwoFactor,
          requiresPin: type.requiresPin,
          requiredPlacement: type.requiredPlacement,
          padesLevel: type.padesLevel as 'B-T' | 'B-LT' | 'B-LTA' | 'document-timestamp',
        },
      })),
    },
  }));

  api.operation('getDocumentSignatures', async ({ principal, params }) => {
    await documentAccess(knex, principal, params.documentId);
    const version = await latestVersion(knex, params.documentId);
    assertScanAllowsUse(version);
    const report = await deps.signing.verify(await deps.files.read(version.sha256));
    return { body: verificationBody(report) };
  });

  api.operation('verifySignatures', verificationLimits, async ({ body }) => {
    const { file } = await readForm(body, 'verification');
    if (!file) throw new AppError('FILE_REQUIRED', { pointer: '/file' });
    // The upload inspection parses the PDF too, so it runs in the PDF worker with the verification, in one budget.
    const report = await deps.signing.verify(file.bytes, { upload: { fileName: file.fileName } });
    return { body: verificationBody(report) };
  });

  api.operation('listLongTermDocuments', { permission: 'logs:download' }, async ({ principal }) => ({
    body: await longTermReport(deps, knex, principal.organizationId),
  }));

  api.operation('renewLongTermDocuments', { permission: 'organization:manage' }, async ({ principal }) => ({
    body: { data: { type: 'LongTermRenewal' as const, attributes: await renewDue(deps, principal.organizationId) } },
  }));

  // ---- seal images ----
  api.operation('listMySealImages', async ({ principal }) => {
    const rows = await knex('seal_images').where({ user_id: principal.userId }).orderBy('created_at', 'desc');
    return { body: { data: rows.map(sealImageResource), meta: { maximum: SEAL_IMAGE_MAXIMUM } } };
  });

  api.operation('createMySealImage', uploadLimits, async ({ principal, body, req }) => {
    const { file, fields } = await readForm(body, 'seal-image');
    return { status: 201, body: { data: await createSealImage(deps, principal, req, file, fields.name) } };
  });

  api.operation('getMySealImageContent', async ({ principal, params }) => {
    const row = await knex('seal_images').where({ id: params.sealImageId, user_id: principal.userId }).first();
    if (!row) throw new AppError('NOT_FOUND');
    return {
      body: await deps.files.read(row.sha256),
      headers: { 'Content-Type': row.content_type, 'Cache-Control': 'private, max-age=3600' },
    };
  });

  api.operation('deleteMySealImage', async ({ principal, params, req }) => {
    await deleteSealImage(deps, principal, req, params.sealImageId);
    return { status: 204 };
  });

  // ---- e-certificate and agents ----
  api.operation('getMyECertificate', async ({ principal }) => ({
    body: { data: eCertificateResource(await myECertificate(knex, principal.userId), deps.clock.now()) },
  }));

  api.operation('registerMyECertificate', uploadLimits, async ({ principal, body, req }) => {
    const { file, fields } = await readForm(body, 'e-certificate');
    const row = await registerECertificate(deps, principal, req, {
      file: file?.bytes ?? null,
      pin: fields.pin ?? '',
      pinConfirmation: fields.pinConfirmation ?? '',
    });
    return { body: { data: eCertificateResource(row, deps.clock.now()) } };
  });

  api.operation('deleteMyECertificate', async ({ principal, req }) => {
    await deleteECertificate(deps, principal, req);
    return { status: 204 };
  });

  api.operation('listMyAgents', async ({ principal }) => ({
    body: await listAgents(knex, principal, deps.clock.now()),
  }));

  api.operation('addMyAgent', async ({ principal, body, req }) => ({
    status: 201,
    body: { data: await addAgent(deps, principal, req, body.data.attributes.userId) },
  }));

  api.operation('removeMyAgent', async ({ principal, params, req }) => {
    await removeAgent(deps, principal, req, params.agentId);
    return { status: 204 };
  });

  // ---- e-mail arrival confirmation ----
  api.operation('requestEmailConfirmation', confirmationMailLimits, async ({ principal, req }) => {
    await requestEmailConfirmation(deps, principal, req);
    return { status: 202 };
  });

  api.operation('confirmEmail', confirmationLinkLimits, async ({ body, req }) => {
    await knex.transaction((trx) => confirmEmail(deps, trx, req, body.data.attributes.token));
    return { status: 204 };
  });

  // A task mail's link opened by the signed-in user: confirms their arrival when it was mailed to their address.
  api.operation('confirmEmailByMailLink', confirmationLinkLimits, async ({ principal, body, req }) => {
    const result = await confirmEmailByMailLink(deps, principal, req, body.data.attributes.token);
    return {
      body: {
        data: {
          type: 'EmailConfirmation' as const,
          attributes: { confirmed: result.confirmed, byThisLink: result.byThisLink },
        },
      },
    };
  });
}
