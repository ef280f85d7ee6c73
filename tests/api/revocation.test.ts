/*
 * Revocation at signing time, through the API: e-certificates issued by a real CA (openssl ca, its CRL served over
 * HTTP, an `openssl ocsp` responder) are checked before every signature and at registration; a revoked certificate
 * refuses party, proxy and advanced signatures and shows as invalid (revoked) with its reason; a CA whose CRL and
 * responder cannot be reached refuses with REVOCATION_UNAVAILABLE instead of signing. And the local CA as RFC 5280
 * asks: a CRL Number and an Authority Key Identifier in its CRL, a CRL distribution point in what it issues.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { signatureContents } from '../../core/signing/byte-ranges.ts';
import { certificateDer, checkSigner, parseSignedData } from '../../core/signing/cms.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { callMultipart } from '../helpers/documents.ts';
import { confirmEmailOf, latestPdf, signTaskCall, tempFile } from '../helpers/signing.ts';
import { groupTask, newDocument, plan, seedTaskWorld, type TaskWorld } from '../helpers/tasks.ts';
import { startTestCa, type TestCa } from '../peers/test-ca.ts';

const plugins = () => BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name));
let app: TestApp | undefined;
let ca: TestCa;
const service = () => app!;

beforeAll(async () => {
  // The CA's CRLs follow the service's clock: moving it past a CRL's nextUpdate makes the service fetch a new one.
  ca = await startTestCa({ ocsp: true, now: () => app?.clock.now() ?? new Date(), crlValiditySeconds: 120 });
  app = await startApp({
    plugins: plugins(),
    env: { SIGNING_TRUST_ANCHORS_FILE: ca.rootFile, TSA_TIMEOUT_MS: '3000' },
  });
});
afterAll(async () => {
  await app?.close();
  await ca?.stop();
});

const knex = () => service().service.deps.knex;

async function world(): Promise<TaskWorld> {
  const w = await seedTaskWorld(service());
  for (const user of [w.userA1, w.userA2, w.userB]) await confirmEmailOf(service(), user.id);
  return w;
}

async function registerCertificate(token: string, p12: Buffer, pin: string) {
  const form = new FormData();
  form.set('file', new Blob([p12]), 'me.p12');
  form.set('pin', pin);
  form.set('pinConfirmation', pin);
  return callMultipart(service(), 'registerMyECertificate', { token, form });
}

async function userOf(userId: string): Promise<{ name: string; email: string }> {
  return knex()('users').where({ id: userId }).first('name', 'email');
}

/** A document with one sign task of `signatureType` for `group`. */
async function signTaskOf(w: TaskWorld, group: string, signatureType: string) {
  const documentId = await newDocument(service(), w.ownerA.token, w.flowId);
  const [task] = await plan(service(), w.ownerA.token, documentId, [groupTask(1, 'sign', group, { signatureType })]);
  return { documentId, taskId: task!.id };
}

async function storedNothing(documentId: string, taskId: string): Promise<void> {
  expect(await knex()('document_versions').where({ document_id: documentId })).toHaveLength(1);
  expect(await knex()('sign_records').where({ document_id: documentId })).toHaveLength(0);
  expect((await knex()('tasks').where({ id: taskId }).first('status')).status).toBe('active');
}

describe('the local CA', () => {
  const openssl = (args: string[]) => execFileSync('openssl', args, { encoding: 'utf8' });

  it('publishes a CRL with a CRL Number and an Authority Key Identifier, the same bytes within the hour', async () => {
    const first = Buffer.from(await (await fetch(`${service().url}/pki/local-ca.crl`)).arrayBuffer());
    const again = Buffer.from(await (await fetch(`${service().url}/pki/local-ca.crl`)).arrayBuffer());
    expect(again.equals(first)).toBe(true);
    const text = openssl(['crl', '-inform', 'DER', '-in', tempFile('local.crl', first), '-text', '-noout']);
    expect(text).toMatch(/X509v3 CRL Number:\s*\n\s*\d+/);
    expect(text).toMatch(/X509v3 Authority Key Identifier:\s*\n\s*(keyid:)?[0-9A-F]{2}:/);
  });

  it('issues the operator certificate with its CRL distribution point; openssl verify -crl_check accepts it', async () => {
    const w = await world();
    const task = await signTaskOf(w, w.g1, 'operator');
    expect((await signTaskCall(service(), w.userA1.token, task.taskId)).status).toBe(200);
    const pdf = await latestPdf(service(), task.documentId);
    const { der, byteRange } = signatureContents(pdf)[0]!;
    const { signedData } = parseSignedData(der);
    const content = Buffer.concat([
      pdf.subarray(byteRange[0], byteRange[0] + byteRange[1]),
      pdf.subarray(byteRange[2], byteRange[2] + byteRange[3]),
    ]);
    const signer = new X509Certificate(certificateDer(checkSigner(signedData, content).certificate!));
    const text = openssl(['x509', '-in', tempFile('operator.pem', signer.toString()), '-text', '-noout']);
    expect(text).toContain('X509v3 CRL Distribution Points');
    expect(text).toMatch(/URI:http:\/\/[^\s]+\/pki\/local-ca\.crl/);
    expect(text).toMatch(/CA Issuers - URI:http:\/\/[^\s]+\/pki\/local-ca\.crt/);

    const localCa = new X509Certificate(
      Buffer.from(await (await fetch(`${service().url}/pki/local-ca.crt`)).arrayBuffer()),
    );
    const crl = Buffer.from(await (await fetch(`${service().url}/pki/local-ca.crl`)).arrayBuffer());
    const crlPem = openssl(['crl', '-inform', 'DER', '-in', tempFile('local.crl', crl)]);
    const verified = spawnSync(
      'openssl',
      [
        'verify',
        '-crl_check',
        '-purpose',
        'any',
        '-CAfile',
        tempFile('local-ca.pem', localCa.toString()),
        '-CRLfile',
        tempFile('local-crl.pem', crlPem),
        tempFile('operator.pem', signer.toString()),
      ],
      { encoding: 'utf8' },
    );
    expect(`${verified.stdout}${verified.stderr}`).toContain(': OK');
  });
});

// After the local CA's tests: one of these moves the service's clock forward.
describe('a user certificate from a CA', () => {
  it('signs an advanced signature when the CRL says good, and when the OCSP responder says good', async () => {
    const w = await world();
    const a1 = await userOf(w.userA1.id);
    const viaCrl = await ca.issue(a1.name, a1.email, { ocsp: false, pin: '4321' });
    const registered = await registerCertificate(w.userA1.token, viaCrl.p12, '4321');
    expect(registered.status).toBe(200);
    expect(registered.body.data.attributes).toMatchObject({
      status: 'valid',
      invalidReason: null,
      revokedAt: null,
      revocationReason: null,
      revocationCheckedAt: expect.any(String),
    });
    const first = await signTaskOf(w, w.g1, 'advanced');
    expect((await signTaskCall(service(), w.userA1.token, first.taskId, { pin: '4321' })).status).toBe(200);
    expect(await knex()('sign_records').where({ document_id: first.documentId })).toHaveLength(1);

    const a2 = await userOf(w.userA2.id);
    const viaOcsp = await ca.issue(a2.name, a2.email, { ocsp: true, pin: '8765' });
    expect((await registerCertificate(w.userA2.token, viaOcsp.p12, '8765')).status).toBe(200);
    const crlRequests = ca.crlRequests();
    const second = await signTaskOf(w, w.g2, 'advanced');
    expect((await signTaskCall(service(), w.userA2.token, second.taskId, { pin: '8765' })).status).toBe(200);
    expect(ca.crlRequests()).toBe(crlRequests); // the responder answered: no CRL was needed
    // The B-LT signature's DSS holds the OCSP response that said good.
    const pdf = await latestPdf(service(), second.documentId);
    expect(pdf.includes(Buffer.from('/OCSPs'))).toBe(true);
  });

  it('refuses party, proxy and advanced signatures once the CA revokes it (keyCompromise), storing nothing', async () => {
    const w = await world();
    const a1 = await userOf(w.userA1.id);
    const issued = await ca.issue(a1.name, a1.email, { ocsp: false, pin: '2468' });
    expect((await registerCertificate(w.userA1.token, issued.p12, '2468')).status).toBe(200);
    const agent = await service().api.call('addMyAgent', {
      token: w.userA1.token,
      body: { data: { type: 'Agent', attributes: { userId: w.userA2.id } } },
    });
    expect(agent.status).toBe(201);
    const party = await signTaskOf(w, w.g1, 'party');
    const proxy = await signTaskOf(w, w.g2, 'proxy');
    const advanced = await signTaskOf(w, w.g1, 'advanced');

    await ca.revoke(issued.certDer, 'keyCompromise');
    service().clock.advance(3 * 60_000); // past the cached CRL's nextUpdate: the next check fetches the new CRL

    const attempts = [
      [party, w.userA1.token, { pin: '2468' }],
      [proxy, w.userA2.token, { pin: '2468', onBehalfOfUserId: w.userA1.id }],
      [advanced, w.userA1.token, { pin: '2468' }],
    ] as const;
    for (const [task, token, attributes] of attempts) {
      const refused = await signTaskCall(service(), token, task.taskId, attributes);
      expect([refused.status, refused.body.errors[0].code]).toEqual([409, 'E_CERTIFICATE_REVOKED']);
      expect(refused.body.errors[0].detail).toContain(a1.email);
      await storedNothing(task.documentId, task.taskId);
    }

    const mine = await service().api.call('getMyECertificate', { token: w.userA1.token });
    expect(mine.body.data.attributes).toMatchObject({
      status: 'invalid',
      invalidReason: 'revoked',
      revocationReason: 'keyCompromise',
      revokedAt: expect.any(String),
      revocationCheckedAt: expect.any(String),
    });
    const logged = await knex()('operation_logs').where({ action: 'e_certificate.revoked' });
    expect(logged.map((l) => l.target_id)).toEqual([mine.body.data.id]);
    const principals = await service().api.call('listMyAgents', { token: w.userA2.token });
    expect(principals.body.meta.principals).toEqual([
      { userId: w.userA1.id, name: a1.name, certificateStatus: 'invalid' },
    ]);

    // A new certificate replaces it and clears the revocation.
    const renewed = await ca.issue(a1.name, a1.email, { ocsp: false, pin: '1357' });
    const replaced = await registerCertificate(w.userA1.token, renewed.p12, '1357');
    expect(replaced.body.data.attributes).toMatchObject({
      status: 'valid',
      invalidReason: null,
      revokedAt: null,
      revocationReason: null,
    });
    expect((await signTaskCall(service(), w.userA1.token, party.taskId, { pin: '1357' })).status).toBe(200);
  });

  it('cannot be registered once revoked (the OCSP responder says so)', async () => {
    const w = await world();
    const a1 = await userOf(w.userA1.id);
    const issued = await ca.issue(a1.name, a1.email, { ocsp: true, pin: '1111' });
    await ca.revoke(issued.certDer, 'superseded');
    const refused = await registerCertificate(w.userA1.token, issued.p12, '1111');
    expect([refused.status, refused.body.errors[0].code]).toEqual([409, 'E_CERTIFICATE_REVOKED']);
    expect(refused.body.errors[0].detail).toMatch(/superseded.*OCSP http:\/\/127\.0\.0\.1/);
    const mine = await service().api.call('getMyECertificate', { token: w.userA1.token });
    expect(mine.body.data.attributes.status).toBe('not_registered');
  });

  it('refuses with 503 REVOCATION_UNAVAILABLE naming the certificate when its CRL server and responder are down', async () => {
    const offline = await startTestCa({ ocsp: true, name: 'Keiyaku Offline Test CA' });
    try {
      const w = await world();
      const a1 = await userOf(w.userA1.id);
      const issued = await offline.issue(a1.name, a1.email, { ocsp: true, pin: '5555' });
      await offline.stopOcsp();
      await offline.stopCrlServer();
      // An unknown status does not stop the registration: it is checked again before every signature.
      const registered = await registerCertificate(w.userA1.token, issued.p12, '5555');
      expect(registered.status).toBe(200);
      expect(registered.body.data.attributes).toMatchObject({ status: 'valid', revocationCheckedAt: null });
      for (const signatureType of ['party', 'advanced']) {
        const task = await signTaskOf(w, w.g1, signatureType);
        const refused = await signTaskCall(service(), w.userA1.token, task.taskId, { pin: '5555' });
        expect([refused.status, refused.body.errors[0].code]).toEqual([503, 'REVOCATION_UNAVAILABLE']);
        const { detail } = refused.body.errors[0];
        expect(detail).toContain(a1.email);
        expect(detail).toContain(`OCSP ${offline.ocspUrl}`);
        expect(detail).toContain(`CRL ${offline.crlUrl}`);
        await storedNothing(task.documentId, task.taskId);
      }
      const mine = await service().api.call('getMyECertificate', { token: w.userA1.token });
      expect(mine.body.data.attributes).toMatchObject({ status: 'valid', revocationCheckedAt: null });
    } finally {
      await offline.stop();
    }
  });
});
