/*
 * Sign tasks through the API: every signature type, the checks before signing (arrival confirmation, placements,
 * two-factor codes, PINs, agents), the ledger, and what an independent validator (pdfsig, qpdf) says of the result.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GifWriter } from 'omggif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { callMultipart } from '../helpers/documents.ts';
import { waitForMail } from '../helpers/mail.ts';
import {
  confirmEmailOf,
  independentChecks,
  latestPdf,
  makePkcs12,
  pdfsig,
  qpdfCheck,
  sealPng,
  signTaskCall,
  tempFile,
  waitForSmsCode,
} from '../helpers/signing.ts';
import { groupTask, newDocument, partnerTask, plan, seedTaskWorld, type TaskWorld } from '../helpers/tasks.ts';

const plugins = () => BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name));
let app: TestApp;
beforeAll(async () => {
  app = await startApp({ plugins: plugins() });
});
afterAll(() => app.close());

const knex = () => app.service.deps.knex;

async function world(): Promise<TaskWorld> {
  const w = await seedTaskWorld(app);
  for (const user of [w.userA1, w.userA2, w.userB]) await confirmEmailOf(app, user.id);
  return w;
}

async function uploadSeal(token: string, bytes = sealPng(), fileName = 'seal.png') {
  const form = new FormData();
  form.set('file', new Blob([bytes]), fileName);
  form.set('name', '角印');
  return callMultipart(app, 'createMySealImage', { token, form });
}

async function registerCertificate(token: string, p12: Buffer, pin: string, confirmation = pin) {
  const form = new FormData();
  form.set('file', new Blob([p12]), 'me.p12');
  form.set('pin', pin);
  form.set('pinConfirmation', confirmation);
  return callMultipart(app, 'registerMyECertificate', { token, form });
}

const nameOf = async (userId: string) => (await knex()('users').where({ id: userId }).first('name')).name as string;

describe('a flow with three signers of three types', () => {
  it('yields one PDF in which all three signatures validate, with one ledger row each', async () => {
    const w = await world();
    await knex()('users').where({ id: w.userB.id }).update({ name: 'Partner Signer' });
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1, { signatureType: 'operator' }),
      groupTask(2, 'sign', w.g2, { signatureType: 'seal-image' }),
      partnerTask(3, 'sign', w.ownerB.organizationId, { signatureType: 'party' }),
    ]);
    expect(tasks.map((t) => t.attributes.signatureType)).toEqual(['operator', 'seal-image', 'party']);

    const first = await signTaskCall(app, w.userA1.token, tasks[0]!.id, {
      placements: [{ kind: 'text', page: 1, rect: { x1: 50, y1: 50, x2: 200, y2: 110 }, lines: ['山田太郎', '承認'] }],
    });
    expect(first.status).toBe(200);
    expect(first.body.data.attributes.status).toBe('completed');
    expect(first.body.meta.document.currentOrder).toBe(2);

    const seal = await uploadSeal(w.userA2.token);
    expect(seal.status).toBe(201);
    const second = await signTaskCall(app, w.userA2.token, tasks[1]!.id, {
      placements: [
        { kind: 'seal', page: 1, rect: { x1: 400, y1: 60, x2: 460, y2: 120 }, sealImageId: seal.body.data.id },
      ],
    });
    expect(second.status).toBe(200);

    const p12 = makePkcs12({ commonName: 'Partner Signer', pin: '1234' });
    expect((await registerCertificate(w.userB.token, p12, '1234')).body.data.attributes.status).toBe('valid');
    const third = await signTaskCall(app, w.userB.token, tasks[2]!.id, { pin: '1234' });
    expect(third.status).toBe(200);
    expect(third.body.meta.document.status).toBe('completed');

    const pdf = await latestPdf(app, documentId);
    const result = pdfsig(pdf);
    expect(result.validations).toEqual(['Signature is Valid.', 'Signature is Valid.', 'Signature is Valid.']);
    expect(result.types).toEqual(['ETSI.CAdES.detached', 'ETSI.CAdES.detached', 'ETSI.CAdES.detached']);
    qpdfCheck(pdf);

    const report = await app.api.call('getDocumentSignatures', { token: w.ownerA.token, params: { documentId } });
    expect(report.status).toBe(200);
    const signatures = report.body.data.attributes.signatures;
    expect(signatures.map((s: any) => [s.signerName, s.integrity, s.padesLevel, s.coverage])).toEqual([
      [await nameOf(w.userA1.id), 'valid', 'B-T', 'revision'],
      [await nameOf(w.userA2.id), 'valid', 'B-T', 'revision'],
      ['Partner Signer', 'valid', 'B-T', 'whole-document'],
    ]);
    expect(signatures[2].chain).toBe('untrusted'); // a self-signed e-certificate: intact, not trusted

    const versions = await knex()('document_versions').where({ document_id: documentId }).orderBy('version');
    expect(versions.map((v) => [v.kind, v.signature_type, v.scan_status])).toEqual([
      ['upload', null, 'clean'],
      ['signature', 'operator', 'clean'],
      ['signature', 'seal-image', 'clean'],
      ['signature', 'party', 'clean'],
    ]);
    const ledger = await knex()('sign_records').where({ document_id: documentId }).orderBy('id');
    expect(ledger.map((r) => [r.signature_type, r.document_revision, r.document_hash])).toEqual(
      versions.slice(1).map((v) => [v.signature_type, v.version, v.sha256]),
    );
    expect(ledger.every((r) => r.ip_address)).toBe(true);
    expect(ledger[2].certificate_subject).toContain('Partner Signer');
    const usage = await knex()('usage_counters').where({
      organization_id: w.ownerA.organizationId,
      metric: 'signatures',
    });
    expect(usage[0]?.count).toBe(3); // signatures on A's document, the partner's included
    // Per type and the RFC 3161 timestamps (one signature timestamp each, B-T) the statements bill.
    const counters = await app.service.deps.knex('usage_counters').where({ organization_id: w.ownerA.organizationId });
    const byMetric = Object.fromEntries(counters.map((c) => [c.metric, Number(c.count)]));
    expect(byMetric).toMatchObject({
      'signatures.operator': 1,
      'signatures.seal-image': 1,
      'signatures.party': 1,
      timestamps: 3,
    });
    const month = await app.api.call('getUsage', { token: w.ownerA.token });
    expect(month.body.meta.totals).toMatchObject({
      signatures: 3,
      signaturesByType: { operator: 1, 'seal-image': 1, party: 1 },
      timestamps: 3,
    });
    const verified = await app.api.call('verifySignRecords', { token: w.ownerA.token });
    expect(verified.body.data.attributes.valid).toBe(true);
  });
});

describe('every signature type', () => {
  it('signs with each type; pdfsig, openssl cms/ts and qpdf accept every result', async () => {
    const w = await world();
    const name = await nameOf(w.userA1.id);
    const email = (await knex()('users').where({ id: w.userA1.id }).first('email')).email as string;
    await registerCertificate(w.userA1.token, makePkcs12({ commonName: name, email, pin: '2468' }), '2468');
    const addAgent = await app.api.call('addMyAgent', {
      token: w.userA1.token,
      body: { data: { type: 'Agent', attributes: { userId: w.userA2.id } } },
    });
    expect(addAgent.status).toBe(201);
    const seal = await uploadSeal(w.userA1.token);
    const drawing = `data:image/png;base64,${sealPng(80).toString('base64')}`;
    const at = { page: 1, rect: { x1: 300, y1: 80, x2: 380, y2: 140 } };
    const cases: [string, TaskWorld['userA1'], Record<string, unknown>][] = [
      ['operator', w.userA1, { placements: [{ kind: 'text', ...at, lines: ['承認'] }] }],
      ['handwritten', w.userA1, { placements: [{ kind: 'handwritten', ...at, image: drawing }] }],
      ['seal-image', w.userA1, { placements: [{ kind: 'seal', ...at, sealImageId: seal.body.data.id }] }],
      ['long-term', w.userA1, {}],
      ['timestamp', w.userA1, {}],
      ['party', w.userA1, { pin: '2468' }],
      ['proxy', w.userA2, { pin: '2468', onBehalfOfUserId: w.userA1.id }],
      ['advanced', w.userA1, { pin: '2468' }],
    ];
    const localCa = await (await fetch(`${app.url}/pki/local-ca.crt`)).arrayBuffer();
    const localCaPem = new X509Certificate(Buffer.from(localCa)).toString();
    for (const [signatureType, signer, attributes] of cases) {
      const documentId = await newDocument(app, w.ownerA.token, w.flowId);
      const group = signer === w.userA1 ? w.g1 : w.g2;
      const [task] = await plan(app, w.ownerA.token, documentId, [groupTask(1, 'sign', group, { signatureType })]);
      const signed = await signTaskCall(app, signer.token, task!.id, attributes);
      expect(signed.status, signatureType).toBe(200);
      const pdf = await latestPdf(app, documentId);
      expect(independentChecks(pdf, localCaPem), signatureType).toEqual([]);
      const checked = pdfsig(pdf);
      const cades = checked.types.map((type, i) => [type, checked.validations[i]]).filter(([t]) => t !== 'unknown');
      if (signatureType === 'timestamp') expect(cades, signatureType).toEqual([]);
      else {
        expect(cades[0], signatureType).toEqual(['ETSI.CAdES.detached', 'Signature is Valid.']);
      }
      const report = await app.api.call('getDocumentSignatures', { token: w.ownerA.token, params: { documentId } });
      expect(report.body.data.attributes.allIntact, signatureType).toBe(true);
    }
  });
});

describe('checks before signing', () => {
  it('needs a confirmed e-mail address; the mailed link confirms it and a changed address needs it again', async () => {
    const w = await seedTaskWorld(app);
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const [task] = await plan(app, w.ownerA.token, documentId, [groupTask(1, 'sign', w.g1)]);
    const refused = await signTaskCall(app, w.userA1.token, task!.id);
    expect([refused.status, refused.body.errors[0].code]).toEqual([403, 'SIGNING_EMAIL_NOT_CONFIRMED']);
    expect((await app.api.call('getCurrentUser', { token: w.userA1.token })).body.data.attributes.emailConfirmed).toBe(
      false,
    );
    expect((await app.api.call('requestEmailConfirmation', { token: w.userA1.token })).status).toBe(202);
    const mail = await waitForMail(app, (m) => (m.text ?? '').includes('/arrival-confirmation?token='));
    const token = /token=([\w-]+)/.exec(mail.text ?? '')![1]!;
    const bad = await app.api.call('confirmEmail', {
      body: { data: { type: 'EmailConfirmation', attributes: { token: `${token}x` } } },
    });
    expect(bad.body.errors[0].code).toBe('EMAIL_CONFIRMATION_LINK_INVALID');
    const confirmed = await app.api.call('confirmEmail', {
      body: { data: { type: 'EmailConfirmation', attributes: { token } } },
    });
    expect(confirmed.status).toBe(204);
    const reused = await app.api.call('confirmEmail', {
      body: { data: { type: 'EmailConfirmation', attributes: { token } } },
    });
    expect(reused.body.errors[0].code).toBe('EMAIL_CONFIRMATION_LINK_INVALID');
    expect((await app.api.call('getCurrentUser', { token: w.userA1.token })).body.data.attributes.emailConfirmed).toBe(
      true,
    );
    expect((await signTaskCall(app, w.userA1.token, task!.id)).status).toBe(200);
    await knex()('users')
      .where({ id: w.userA1.id })
      .update({ email: `changed-${Date.now()}@example.com` });
    expect((await app.api.call('getCurrentUser', { token: w.userA1.token })).body.data.attributes.emailConfirmed).toBe(
      false,
    );
  });

  it('refuses placements outside the document and a seal-image signature without its seal', async () => {
    const w = await world();
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const [task] = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1, { signatureType: 'seal-image' }),
    ]);
    const codeOf = async (attributes: Record<string, unknown>) =>
      (await signTaskCall(app, w.userA1.token, task!.id, attributes)).body.errors[0].code;
    const text = (page: number, rect: Record<string, number>, lines = ['承認']) => ({
      placements: [{ kind: 'text', page, rect, lines }],
    });
    expect(await codeOf(text(1, { x1: 10, y1: 10, x2: 100, y2: 50 }))).toBe('SIGNING_PLACEMENT_REQUIRED');
    const seal = await uploadSeal(w.userA1.token);
    const withSeal = (extra: Record<string, unknown>) => ({
      placements: [
        { kind: 'seal', page: 1, rect: { x1: 10, y1: 10, x2: 60, y2: 60 }, sealImageId: seal.body.data.id },
        extra,
      ],
    });
    expect(
      await codeOf(withSeal({ kind: 'text', page: 9, rect: { x1: 10, y1: 10, x2: 50, y2: 50 }, lines: ['a'] })),
    ).toBe('SIGNING_PAGE_NOT_FOUND');
    expect(
      await codeOf(withSeal({ kind: 'text', page: 1, rect: { x1: 100, y1: 10, x2: 50, y2: 50 }, lines: ['a'] })),
    ).toBe('SIGNING_POSITION_OUT_OF_RANGE');
    expect(
      await codeOf(withSeal({ kind: 'text', page: 1, rect: { x1: 500, y1: 10, x2: 700, y2: 50 }, lines: ['a'] })),
    ).toBe('SIGNING_POSITION_OUT_OF_RANGE');
    expect(
      await codeOf(
        withSeal({ kind: 'text', page: 1, rect: { x1: 10, y1: 100, x2: 200, y2: 150 }, lines: ['八文字の文字列だ'] }),
      ),
    ).toBe('SIGNING_TEXT_TOO_LONG');
    expect(
      await codeOf(
        withSeal({ kind: 'text', page: 1, rect: { x1: 10, y1: 100, x2: 200, y2: 150 }, lines: ['1', '2', '3', '4'] }),
      ),
    ).toBe('SIGNING_TEXT_TOO_LONG');
    expect(await knex()('document_versions').where({ document_id: documentId })).toHaveLength(1);
    const handwritten = `data:image/png;base64,${sealPng(60).toString('base64')}`;
    const signed = await signTaskCall(
      app,
      w.userA1.token,
      task!.id,
      withSeal({ kind: 'handwritten', page: 1, rect: { x1: 200, y1: 200, x2: 300, y2: 260 }, image: handwritten }),
    );
    expect(signed.status).toBe(200);
    const pdf = await latestPdf(app, documentId);
    expect(pdfsig(pdf).validations).toEqual(['Signature is Valid.']);
    const images = execFileSync('pdfimages', ['-list', tempFile('images.pdf', pdf)], { encoding: 'utf8' });
    expect(images.trim().split('\n').length).toBeGreaterThanOrEqual(4); // header, rule, seal, drawing (+ masks)
  });

  it('two-factor by SMS: only mobile numbers, wrong codes lock for 15 minutes, the right code signs', async () => {
    const w = await world();
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const [task] = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1, { signatureType: 'operator', twoFactor: 'sms' }),
    ]);
    expect(task!.attributes.twoFactor).toBe('sms');
    const request = () => app.api.call('requestSigningCode', { token: w.userA1.token, params: { taskId: task!.id } });
    await knex()('users').where({ id: w.userA1.id }).update({ mobile_phone: '03-1234-5678' });
    expect((await request()).body.errors[0].code).toBe('SIGNING_CODE_SMS_NUMBER_INVALID');
    const phone = `090${String(Date.now()).slice(-8)}`;
    await knex()('users').where({ id: w.userA1.id }).update({ mobile_phone: phone });
    const sent = await request();
    expect(sent.status).toBe(202);
    expect(sent.body.data.attributes).toMatchObject({ channel: 'sms', destination: `090-****-${phone.slice(-4)}` });
    const code = await waitForSmsCode(app, phone);
    expect((await signTaskCall(app, w.userA1.token, task!.id)).body.errors[0].code).toBe('SIGNING_CODE_REQUIRED');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) {
      expect((await signTaskCall(app, w.userA1.token, task!.id, { code: wrong })).body.errors[0].code).toBe(
        'SIGNING_CODE_INVALID',
      );
    }
    const locked = await signTaskCall(app, w.userA1.token, task!.id, { code: wrong });
    expect([locked.status, locked.body.errors[0].code]).toEqual([429, 'SIGNING_CODE_LOCKED']);
    expect((await signTaskCall(app, w.userA1.token, task!.id, { code })).body.errors[0].code).toBe(
      'SIGNING_CODE_LOCKED',
    );
    expect((await request()).status).toBe(429);
    const lock = await knex()('users').where({ id: w.userA1.id }).first('signing_locked_until');
    const minutes = (new Date(lock.signing_locked_until).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
    // Fifteen minutes later (moved in the row: advancing the clock would also expire the session).
    await knex()('users')
      .where({ id: w.userA1.id })
      .update({ signing_locked_until: new Date(Date.now() - 1000) });
    const last = (await knex()('sms_outbox').where({ phone_number: phone }).max({ last: 'created_at' }))[0]!.last;
    expect((await request()).status).toBe(202);
    const fresh = await waitForSmsCode(app, phone, last);
    const signed = await signTaskCall(app, w.userA1.token, task!.id, { code: fresh });
    expect(signed.status).toBe(200);
    const reused = await knex()('signing_codes').where({ task_id: task!.id }).whereNull('consumed_at');
    expect(reused).toHaveLength(0);
  });

  it('a failing TSA fails the signing and stores nothing', async () => {
    const broken = await startApp({
      plugins: plugins(),
      env: { TSA_URL: 'http://127.0.0.1:9/tsa', TSA_TIMEOUT_MS: '2000' },
    });
    try {
      const w = await seedTaskWorld(broken);
      await confirmEmailOf(broken, w.userA1.id);
      const documentId = await newDocument(broken, w.ownerA.token, w.flowId);
      const [task] = await plan(broken, w.ownerA.token, documentId, [groupTask(1, 'sign', w.g1)]);
      const result = await signTaskCall(broken, w.userA1.token, task!.id);
      expect([result.status, result.body.errors[0].code]).toEqual([503, 'TSA_UNAVAILABLE']);
      const db = broken.service.deps.knex;
      expect(await db('document_versions').where({ document_id: documentId })).toHaveLength(1);
      expect(await db('sign_records').where({ document_id: documentId })).toHaveLength(0);
      expect((await db('tasks').where({ id: task!.id }).first()).status).toBe('active');
    } finally {
      await broken.close();
    }
  });
});

describe('e-certificates, agents and the certificate signature types', () => {
  it('registers a PKCS#12 with its PIN: mismatch, wrong PIN, not a PKCS#12, near expiry', async () => {
    const w = await world();
    const p12 = makePkcs12({ commonName: 'Someone', pin: 'pin-1' });
    expect((await registerCertificate(w.userA1.token, p12, 'pin-1', 'pin-2')).body.errors[0].code).toBe(
      'E_CERTIFICATE_PIN_MISMATCH',
    );
    expect((await registerCertificate(w.userA1.token, p12, 'nope')).body.errors[0].code).toBe(
      'E_CERTIFICATE_PIN_WRONG',
    );
    expect((await registerCertificate(w.userA1.token, Buffer.from('not a p12'), 'x')).body.errors[0].code).toBe(
      'E_CERTIFICATE_FILE_INVALID',
    );
    const none = await app.api.call('getMyECertificate', { token: w.userA1.token });
    expect(none.body.data.attributes.status).toBe('not_registered');
    const soon = makePkcs12({ commonName: 'Someone', pin: 'pin-1', days: 10, ec: true });
    const registered = await registerCertificate(w.userA1.token, soon, 'pin-1');
    expect(registered.status).toBe(200);
    expect(registered.body.data.attributes).toMatchObject({ status: 'near_expiry', keyAlgorithm: 'ECDSA-P256' });
    const row = await knex()('e_certificates').where({ user_id: w.userA1.id }).first();
    expect(row.private_key_envelope.includes(Buffer.from('PRIVATE KEY'))).toBe(false);
  });

  it('party: a wrong PIN is refused; proxy: only an agent signs with the principal certificate; both recorded', async () => {
    const w = await world();
    const principalName = await nameOf(w.userA1.id);
    await registerCertificate(w.userA1.token, makePkcs12({ commonName: principalName, pin: '9999' }), '9999');
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1, { signatureType: 'party' }),
      groupTask(2, 'sign', w.g2, { signatureType: 'proxy' }),
    ]);
    const wrong = await signTaskCall(app, w.userA1.token, tasks[0]!.id, { pin: '0000' });
    expect(wrong.body.errors[0].code).toBe('E_CERTIFICATE_PIN_WRONG');
    expect((await knex()('e_certificates').where({ user_id: w.userA1.id }).first()).pin_failures).toBe(1);
    expect((await signTaskCall(app, w.userA1.token, tasks[0]!.id, { pin: '9999' })).status).toBe(200);

    const proxyAttempt = { pin: '9999', onBehalfOfUserId: w.userA1.id };
    expect((await signTaskCall(app, w.userA2.token, tasks[1]!.id, proxyAttempt)).body.errors[0].code).toBe(
      'AGENT_NOT_AUTHORIZED',
    );
    const addAgent = (userId: string) =>
      app.api.call('addMyAgent', { token: w.userA1.token, body: { data: { type: 'Agent', attributes: { userId } } } });
    expect((await addAgent(w.userA1.id)).body.errors[0].code).toBe('AGENT_IS_SELF');
    expect((await addAgent(w.userB.id)).body.errors[0].code).toBe('REFERENCE_NOT_FOUND');
    expect((await addAgent(w.userA2.id)).status).toBe(201);
    expect((await addAgent(w.userA2.id)).body.errors[0].code).toBe('AGENT_DUPLICATE');
    const principals = await app.api.call('listMyAgents', { token: w.userA2.token });
    expect(principals.body.meta.principals).toEqual([
      { userId: w.userA1.id, name: principalName, certificateStatus: 'valid' },
    ]);

    expect((await signTaskCall(app, w.userA2.token, tasks[1]!.id, proxyAttempt)).status).toBe(200);
    const ledger = await knex()('sign_records').where({ document_id: documentId }).orderBy('id');
    expect(ledger.map((r) => [r.signature_type, r.signer_user_id, r.on_behalf_of_user_id])).toEqual([
      ['party', w.userA1.id, null],
      ['proxy', w.userA2.id, w.userA1.id],
    ]);
    const pdf = await latestPdf(app, documentId);
    expect(pdfsig(pdf).validations).toEqual(['Signature is Valid.', 'Signature is Valid.']);
  });

  it('advanced: the certificate must name the signer; the signature carries validation data (B-LT)', async () => {
    const w = await world();
    await registerCertificate(w.userA1.token, makePkcs12({ commonName: 'Somebody Else', pin: '1111' }), '1111');
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const [task] = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1, { signatureType: 'advanced' }),
    ]);
    expect((await signTaskCall(app, w.userA1.token, task!.id, { pin: '1111' })).body.errors[0].code).toBe(
      'SIGNER_IDENTITY_MISMATCH',
    );
    const email = (await knex()('users').where({ id: w.userA1.id }).first('email')).email as string;
    await registerCertificate(w.userA1.token, makePkcs12({ commonName: 'Nickname', email, pin: '1111' }), '1111');
    expect((await signTaskCall(app, w.userA1.token, task!.id, { pin: '1111' })).status).toBe(200);
    const report = await app.api.call('getDocumentSignatures', { token: w.ownerA.token, params: { documentId } });
    expect(report.body.data.attributes.signatures[0]).toMatchObject({ padesLevel: 'B-LT', ltv: { dss: true } });
  });

  it('limits agents to five', async () => {
    const w = await world();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { userIn } = await import('../helpers/accounts.ts');
      ids.push((await userIn(app, w.ownerA.organizationId, [w.g1])).id);
    }
    const add = (userId: string) =>
      app.api.call('addMyAgent', { token: w.userA1.token, body: { data: { type: 'Agent', attributes: { userId } } } });
    for (const id of ids.slice(0, 5)) expect((await add(id)).status).toBe(201);
    expect((await add(ids[5]!)).body.errors[0].code).toBe('AGENT_LIMIT');
    const list = await app.api.call('listMyAgents', { token: w.userA1.token });
    expect(list.body.data).toHaveLength(5);
    expect(
      (await app.api.call('removeMyAgent', { token: w.userA1.token, params: { agentId: list.body.data[0].id } }))
        .status,
    ).toBe(204);
  });
});

describe('timestamp and long-term types', () => {
  it('timestamp-only adds a document timestamp; long-term reaches B-LTA and is scheduled for renewal', async () => {
    const w = await world();
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1, { signatureType: 'timestamp' }),
      groupTask(2, 'sign', w.g2, { signatureType: 'long-term' }),
    ]);
    expect((await signTaskCall(app, w.userA1.token, tasks[0]!.id)).status).toBe(200);
    expect((await signTaskCall(app, w.userA2.token, tasks[1]!.id)).status).toBe(200);
    const report = await app.api.call('getDocumentSignatures', { token: w.ownerA.token, params: { documentId } });
    const kinds = report.body.data.attributes.signatures.map((s: any) => [s.kind, s.integrity, s.padesLevel]);
    expect(kinds).toEqual([
      ['document-timestamp', 'valid', null],
      ['signature', 'valid', 'B-LTA'],
      ['document-timestamp', 'valid', null],
    ]);
    const scheduled = await knex()('long_term_documents').where({ document_id: documentId }).first();
    expect(new Date(scheduled.next_renewal_at).getTime()).toBeLessThan(
      new Date(scheduled.timestamp_not_after).getTime(),
    );
    expect(pdfsig(await latestPdf(app, documentId)).validations[1]).toBe('Signature is Valid.');

    const listed = await app.api.call('listLongTermDocuments', { token: w.ownerA.token });
    const mine = listed.body.data.find((d: any) => d.id === documentId);
    expect(mine.attributes).toMatchObject({ valid: true, signatures: 3, renewalFailures: 0 });
    expect((await app.api.call('listLongTermDocuments', { token: w.userA1.token })).status).toBe(403);
    // Due: the renewal margin before the TSA certificate's expiry has come.
    await knex()('long_term_documents')
      .where({ document_id: documentId })
      .update({ next_renewal_at: new Date(0) });
    const renewed = await app.api.call('renewLongTermDocuments', { token: w.ownerA.token });
    expect(renewed.body.data.attributes).toEqual({ renewed: [documentId], failed: [] });
    const latest = await knex()('document_versions')
      .where({ document_id: documentId })
      .orderBy('version', 'desc')
      .first();
    expect([latest.kind, latest.pades_level]).toEqual(['ltv', 'B-LTA']);
    const after = await app.api.call('getDocumentSignatures', { token: w.ownerA.token, params: { documentId } });
    expect(after.body.data.attributes.allIntact).toBe(true);
    expect(after.body.data.attributes.signatures).toHaveLength(4);
    const row = await knex()('long_term_documents').where({ document_id: documentId }).first();
    expect(new Date(row.next_renewal_at).getTime()).toBeGreaterThan(Date.now());
  });

  it('plans refuse a signature type on other tasks and a code on types that take a PIN', async () => {
    const w = await world();
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const { putPlan } = await import('../helpers/tasks.ts');
    const bad = await putPlan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1, { signatureType: 'operator' }),
      groupTask(2, 'sign', w.g1, { signatureType: 'party', twoFactor: 'sms' }),
    ]);
    expect(bad.body.errors.map((e: any) => [e.code, e.source.pointer])).toEqual([
      ['VALIDATION_FAILED', '/data/attributes/tasks/0/signatureType'],
      ['VALIDATION_FAILED', '/data/attributes/tasks/1/twoFactor'],
    ]);
    const types = await app.api.call('listSignatureTypes', { token: w.ownerA.token });
    expect(types.body.data.map((t: any) => t.id).sort()).toEqual([
      'advanced',
      'handwritten',
      'long-term',
      'operator',
      'party',
      'proxy',
      'seal-image',
      'timestamp',
    ]);
  });
});

describe('seal images and verification uploads', () => {
  it('keeps PNG, JPEG and GIF seal images per user, refuses other files and more than ten', async () => {
    const w = await world();
    const gif = Buffer.alloc(1024);
    const writer = new GifWriter(gif, 30, 20, { palette: [0xff0000, 0xffffff] });
    writer.addFrame(0, 0, 30, 20, new Array(600).fill(0));
    const uploaded = await uploadSeal(w.userA1.token, gif.subarray(0, writer.end()), 'seal.gif');
    expect(uploaded.body.data.attributes).toMatchObject({ contentType: 'image/gif', width: 30, height: 20 });
    expect((await uploadSeal(w.userA1.token, Buffer.from('%PDF-1.4 nope'), 'x.png')).status).toBeGreaterThanOrEqual(
      415,
    );
    const list = await app.api.call('listMySealImages', { token: w.userA1.token });
    expect(list.body.data).toHaveLength(1);
    expect((await app.api.call('listMySealImages', { token: w.userA2.token })).body.data).toHaveLength(0);
    for (let i = 0; i < 9; i++) expect((await uploadSeal(w.userA1.token)).status).toBe(201);
    expect((await uploadSeal(w.userA1.token)).body.errors[0].code).toBe('SEAL_IMAGE_LIMIT');
    const other = await app.api.call('deleteMySealImage', {
      token: w.userA2.token,
      params: { sealImageId: list.body.data[0].id },
    });
    expect(other.status).toBe(404);
  });

  it('verifies an uploaded PDF and reports a tampered byte', async () => {
    const w = await world();
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const [task] = await plan(app, w.ownerA.token, documentId, [groupTask(1, 'sign', w.g1)]);
    await signTaskCall(app, w.userA1.token, task!.id);
    const pdf = await latestPdf(app, documentId);
    const upload = async (bytes: Buffer) => {
      const form = new FormData();
      form.set('file', new Blob([bytes]), 'signed.pdf');
      return callMultipart(app, 'verifySignatures', { token: w.userB.token, form });
    };
    const intact = await upload(pdf);
    expect(intact.body.data.attributes).toMatchObject({ allIntact: true, unsignedTrailingBytes: 0 });
    expect(intact.body.data.attributes.signatures[0]).toMatchObject({
      integrity: 'valid',
      chain: 'trusted',
      timestamp: { valid: true, local: true },
      padesLevel: 'B-T',
    });
    const tampered = Buffer.from(pdf);
    const at = tampered.indexOf('/MediaBox');
    tampered[at + 1] = 'm'.charCodeAt(0);
    const broken = await upload(tampered);
    expect(broken.body.data.attributes.allIntact).toBe(false);
    expect(broken.body.data.attributes.signatures[0].problems).toContain('digest-mismatch');
  });

  it('serves the built-in TSA over RFC 3161 HTTP and the local CA certificate', async () => {
    const data = tempFile('data.txt', 'hello');
    const query = tempFile('query.tsq');
    execFileSync('openssl', ['ts', '-query', '-data', data, '-sha256', '-cert', '-out', query]);
    const response = await fetch(`${app.url}/tsa`, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query' },
      body: readFileSync(query),
    });
    expect(response.headers.get('content-type')).toBe('application/timestamp-reply');
    const reply = tempFile('reply.tsr', new Uint8Array(await response.arrayBuffer()));
    const ca = tempFile('ca.der', new Uint8Array(await (await fetch(`${app.url}/pki/local-ca.crt`)).arrayBuffer()));
    const caPem = tempFile('ca.pem');
    execFileSync('openssl', ['x509', '-inform', 'DER', '-in', ca, '-out', caPem]);
    const verified = execFileSync('openssl', ['ts', '-verify', '-in', reply, '-data', data, '-CAfile', caPem], {
      encoding: 'utf8',
    });
    expect(verified).toContain('OK');
    const crl = await fetch(`${app.url}/pki/local-ca.crl`);
    expect(crl.headers.get('content-type')).toBe('application/pkix-crl');
  });
});
