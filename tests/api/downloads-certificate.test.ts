/*
 * Downloads named after the document and the completion certificate (合意締結証明書): `{name}.pdf` for an uploaded
 * version and `{name}_signed.pdf` for a signed one, with an ASCII fallback and the RFC 5987 UTF-8 name, for members
 * and guests; the certificate of a document a member and a guest signed, refused before completion, signed by the
 * service (pdfsig), listing each signer with their organization, JST time and the document hash (pdftotext), and
 * hidden from another organization and from a guest of another flow.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jst } from '../../core/modules/documents/completion-certificate.ts';
import { signedInOwner } from '../helpers/accounts.ts';
import type { TestApp } from '../helpers/app.ts';
import { insertFlow } from '../helpers/business-flows.ts';
import { guestTask, signedInGuest, type Guest } from '../helpers/one-time-guests.ts';
import { confirmEmailOf, latestPdf, pdfsig, signTaskCall, tempFile } from '../helpers/signing.ts';
import {
  documentRow,
  groupTask,
  newDocument,
  plan,
  seedTaskWorld,
  startTaskApp,
  type TaskWorld,
} from '../helpers/tasks.ts';

// Guests sign in through mail round trips and the certificate is signed with a timestamp: slow on two busy cores.
vi.setConfig({ testTimeout: 120_000 });

let app: TestApp;
beforeAll(async () => {
  app = await startTaskApp();
});
afterAll(() => app.close());

const NAME = '業務委託契約書 2026';

/** GETs a file as member or guest: status, headers and bytes. */
async function get(path: string, token: string) {
  const response = await fetch(`${app.url}/core/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, json: () => JSON.parse(bytes.toString()) };
}

/** The Content-Disposition a download named `name` must carry. */
const disposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

function pdftotext(pdf: Uint8Array): string {
  const result = spawnSync('pdftotext', ['-layout', tempFile('certificate.pdf', pdf), '-'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout;
}

/** A document of A's flow to be signed by a member of G1 (order 1), then by a guest (order 2). */
async function memberThenGuest(w: TaskWorld, guest: Guest) {
  const documentId = await newDocument(app, w.ownerA.token, w.flowId, 'clean', NAME);
  const tasks = await plan(app, w.ownerA.token, documentId, [
    groupTask(1, 'sign', w.g1, { signatureType: 'operator' }),
    guestTask(2, 'sign', guest.oneTimeUserId, { signatureType: 'operator' }),
  ]);
  return {
    documentId,
    memberTask: tasks.find((t) => t.attributes.order === 1)!.id,
    guestTask: tasks.find((t) => t.attributes.order === 2)!.id,
  };
}

describe('downloads and the completion certificate of a member-and-guest signature', () => {
  it('names downloads after the document, refuses the certificate before completion and issues a signed one after', async () => {
    const w = await seedTaskWorld(app);
    const guest = await signedInGuest(app, w.ownerA.token, w.flowId, { name: 'ゲスト 花子' });
    const { documentId, memberTask, guestTask: guestTaskId } = await memberThenGuest(w, guest);
    const member = `/documents/${documentId}`;
    const onetime = `/onetime/documents/${documentId}`;

    // The uploaded version: `{name}.pdf`, for the member and the guest alike.
    const original = await get(`${member}/file`, w.ownerA.token);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-disposition')).toBe(disposition(`${NAME}.pdf`));
    expect(original.headers.get('content-disposition')).toContain(
      "filename*=UTF-8''%E6%A5%AD%E5%8B%99%E5%A7%94%E8%A8%97%E5%A5%91%E7%B4%84%E6%9B%B8%202026.pdf",
    );
    // Before completion there is no certificate (409), for members and guests.
    const early = await get(`${member}/completion-certificate`, w.ownerA.token);
    expect([early.status, early.json().errors[0].code]).toEqual([409, 'DOCUMENT_NOT_COMPLETED']);
    const earlyGuest = await get(`${onetime}/completion-certificate`, guest.token);
    expect([earlyGuest.status, earlyGuest.json().errors[0].code]).toEqual([409, 'DOCUMENT_NOT_COMPLETED']);

    // The member signs: the latest version is `{name}_signed.pdf`; version 1 keeps the plain name.
    await confirmEmailOf(app, w.userA1.id);
    expect((await signTaskCall(app, w.userA1.token, memberTask)).status).toBe(200);
    const halfSigned = await get(`${member}/file`, w.ownerA.token);
    expect(halfSigned.headers.get('content-disposition')).toBe(disposition(`${NAME}_signed.pdf`));
    const first = await get(`${member}/file?version=1`, w.ownerA.token);
    expect(first.headers.get('content-disposition')).toBe(disposition(`${NAME}.pdf`));

    // The guest signs; the document completes. The guest's download is the signed PDF under the same name.
    const guestSigned = await app.api.call('signOneTimeTask', {
      token: guest.token,
      params: { taskId: guestTaskId },
      body: { data: { type: 'TaskSignature', attributes: {} } },
    });
    expect(guestSigned.status).toBe(200);
    const document = await documentRow(app, documentId);
    expect(document.status).toBe('completed');
    const guestFile = await get(`${onetime}/file`, guest.token);
    expect(guestFile.status).toBe(200);
    expect(guestFile.headers.get('content-disposition')).toBe(disposition(`${NAME}_signed.pdf`));
    const finalPdf = await latestPdf(app, documentId);
    expect(guestFile.bytes.equals(finalPdf)).toBe(true);

    // The certificate: a PDF signed by the service that pdfsig validates, named after the document.
    const certificate = await get(`${member}/completion-certificate`, w.ownerA.token);
    expect(certificate.status).toBe(200);
    expect(certificate.headers.get('content-type')).toBe('application/pdf');
    expect(certificate.headers.get('content-disposition')).toBe(disposition(`${NAME}_合意締結証明書.pdf`));
    const checked = pdfsig(certificate.bytes);
    expect(checked.validations).toEqual(['Signature is Valid.']);
    expect(checked.types).toEqual(['ETSI.CAdES.detached']);

    // What it says: each signer, their organization (the guest as a one-time user with the address), the times in
    // JST, how they proved who they were, the verification of each signature and the final PDF's hash.
    const text = pdftotext(certificate.bytes);
    const records = await app.service.deps
      .knex('sign_records')
      .where({ document_id: documentId })
      .orderBy('id')
      .select('signer_name', 'signed_at');
    expect(records.map((r) => r.signer_name)).toHaveLength(2);
    const hash = createHash('sha256').update(finalPdf).digest('hex');
    for (const expected of [
      '合意締結証明書',
      'Certificate of Completion',
      NAME,
      '売買契約 2026',
      '株式会社A',
      records[0]!.signer_name,
      'ゲスト 花子',
      'ワンタイムユーザー',
      guest.email,
      jst(records[0]!.signed_at),
      jst(records[1]!.signed_at),
      'パスワード＋メール到達確認',
      'メールアドレスに届いた認証コード',
      '立会人型（事業者署名）',
      hash,
    ]) {
      expect(text.replace(/\s+/g, ' '), `${expected} in:\n${text}`).toContain(expected);
    }
    expect(text.match(/有効 \/ Valid/g)).toHaveLength(2);

    // The guest gets the same certificate through their own operation.
    const guestCertificate = await get(`${onetime}/completion-certificate`, guest.token);
    expect(guestCertificate.status).toBe(200);
    expect(guestCertificate.headers.get('content-disposition')).toBe(disposition(`${NAME}_合意締結証明書.pdf`));
    expect(pdfsig(guestCertificate.bytes).validations).toEqual(['Signature is Valid.']);

    // Another organization and a guest of another flow see nothing (404), as for every document operation.
    const stranger = await signedInOwner(app, { organizationName: '株式会社C' });
    expect((await get(`${member}/completion-certificate`, stranger.token)).status).toBe(404);
    expect((await get(`${member}/file`, stranger.token)).status).toBe(404);
    const otherFlow = await insertFlow(app, w.ownerA.organizationId, w.workspaceId, {
      name: '別の取引',
      createdBy: w.ownerA.ownerId,
    });
    const otherGuest = await signedInGuest(app, w.ownerA.token, otherFlow, { name: '別のゲスト' });
    expect((await get(`${onetime}/completion-certificate`, otherGuest.token)).status).toBe(404);
    expect((await get(`${onetime}/file`, otherGuest.token)).status).toBe(404);
  });

  it('replaces characters no file system takes in a name', async () => {
    const w = await seedTaskWorld(app);
    const documentId = await newDocument(app, w.ownerA.token, w.flowId, 'clean', '見積書: A/B "案"');
    const response = await get(`/documents/${documentId}/file`, w.ownerA.token);
    expect(response.headers.get('content-disposition')).toBe(disposition('見積書_ A_B _案_.pdf'));
  });
});
