/*
 * Long-term renewals end: when the TSA's certificate expires too soon for a new document timestamp to move the
 * renewal deadline, the hourly run records the failure once and stops trying; an administrator's run tries again,
 * and a renewal that works clears the failure. The TSA is a real RFC 3161 server over HTTP (TSA_URL) answering with
 * the engine's own responder and a certificate from the local CA that this test issues.
 */
import { createPrivateKey, webcrypto } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renewDue } from '../../core/modules/signing/long-term.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { arrayBuffer } from '../../core/signing/cms.ts';
import type { ServiceKey } from '../../core/signing/pki.ts';
import { respondToTimestampRequest } from '../../core/signing/tsa.ts';
import { x509Lib } from '../../core/signing/x509-lib.ts';
import { signIn } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { confirmEmailOf, latestPdf, pdfsig, signTaskCall } from '../helpers/signing.ts';
import { groupTask, newDocument, plan, seedTaskWorld } from '../helpers/tasks.ts';

const DAY = 24 * 3600_000;
const HOUR = 3600_000;
const RSA = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};

let app: TestApp;
let server: Server;
let tsaKey: ServiceKey | null = null;

/** A TSA key whose certificate, issued by the app's local CA, expires `days` from now. */
async function issueTsaKey(days: number): Promise<ServiceKey> {
  const x509 = await x509Lib();
  const ca = await app.service.deps.signing.pki.key('local-ca');
  const caCertificate = new x509.X509Certificate(arrayBuffer(ca.certificate));
  const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const caKey = await webcrypto.subtle.importKey(
    'pkcs8',
    ca.privateKey.export({ format: 'der', type: 'pkcs8' }),
    RSA,
    false,
    ['sign'],
  );
  const now = app.clock.now();
  const notAfter = new Date(now.getTime() + days * DAY);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: '4a' + Date.now().toString(16),
    subject: `CN=Short-lived TSA ${days}d, O=Keiyaku Tests, C=JP`,
    issuer: caCertificate.subject,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter,
    signingAlgorithm: RSA,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.timeStamping], true),
      await x509.AuthorityKeyIdentifierExtension.create(caCertificate),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return {
    purpose: 'local-tsa',
    privateKey: createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }),
    certificate: new Uint8Array(certificate.rawData),
    chain: [ca.certificate],
    notAfter,
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (!tsaKey) {
        res.writeHead(503).end();
        return;
      }
      respondToTimestampRequest(Buffer.concat(chunks), tsaKey, app.clock.now()).then(
        (reply) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(Buffer.from(reply)),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const tsaUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`;
  app = await startApp({
    plugins: BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name)),
    env: { TSA_URL: tsaUrl, SIGNING_RENEWAL_MARGIN_DAYS: '30' },
  });
  tsaKey = await issueTsaKey(10); // inside the 30-day margin: every renewal is due at once and moves nothing
});
afterAll(async () => {
  await app?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const knex = () => app.service.deps.knex;

async function longTermDocument() {
  const w = await seedTaskWorld(app);
  await confirmEmailOf(app, w.userA1.id);
  const documentId = await newDocument(app, w.ownerA.token, w.flowId);
  const [task] = await plan(app, w.ownerA.token, documentId, [
    groupTask(1, 'sign', w.g1, { signatureType: 'long-term' }),
  ]);
  expect((await signTaskCall(app, w.userA1.token, task!.id)).status).toBe(200);
  return { w, documentId };
}

const row = (documentId: string) => knex()('long_term_documents').where({ document_id: documentId }).first();
const versions = async (documentId: string) =>
  Number((await knex()('document_versions').where({ document_id: documentId }).count({ n: '*' }))[0]!.n);
const failureLogs = async (documentId: string) =>
  knex()('operation_logs').where({ action: 'document.long_term_renewal_failed', target_id: documentId });

describe('long-term renewals that cannot move the deadline', () => {
  it('the hourly run records an ineffective renewal once, stores no revision and skips the row after', async () => {
    const { w, documentId } = await longTermDocument();
    const scheduled = await row(documentId);
    // X.509 times have whole seconds.
    expect(Math.abs(new Date(scheduled.timestamp_not_after).getTime() - tsaKey!.notAfter.getTime())).toBeLessThan(1000);
    expect(new Date(scheduled.next_renewal_at).getTime()).toBeLessThan(app.clock.now().getTime());
    const before = await versions(documentId);

    app.clock.advance(HOUR);
    const first = await renewDue(app.service.deps, null);
    expect(first.renewed).toEqual([]);
    expect(first.failed).toEqual([{ documentId, error: expect.stringMatching(/^RENEWAL_INEFFECTIVE: /) }]);
    app.clock.advance(HOUR);
    const second = await renewDue(app.service.deps, null);
    expect(second.failed.map((f) => f.documentId)).not.toContain(documentId);

    const stalled = await row(documentId);
    expect(stalled.renewal_failures).toBe(1);
    expect(stalled.stalled_at).not.toBeNull();
    expect(stalled.last_error).toMatch(
      /^RENEWAL_INEFFECTIVE: the new timestamp's TSA certificate expires .+, no later than before$/,
    );
    expect(new Date(stalled.next_renewal_at).getTime()).toBe(new Date(scheduled.next_renewal_at).getTime());
    expect(await versions(documentId)).toBe(before);
    expect(await failureLogs(documentId)).toHaveLength(1);

    // Two hours on, the owner's session has idled out: a fresh sign-in reads the list.
    const { authorizationToken: token } = await signIn(app, w.ownerA.loginId, w.ownerA.password);
    const listed = await app.api.call('listLongTermDocuments', { token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.find((d: { id: string }) => d.id === documentId).attributes).toMatchObject({
      renewalFailures: 1,
      lastError: stalled.last_error,
      valid: true,
    });
  }, 90_000);

  it("an administrator's run tries a stalled row again, and a renewal that works clears the failure", async () => {
    const { w, documentId } = await longTermDocument();
    await renewDue(app.service.deps, null);
    expect((await row(documentId)).stalled_at).not.toBeNull();

    const retried = await app.api.call('renewLongTermDocuments', { token: w.ownerA.token });
    expect(retried.status).toBe(200);
    expect(retried.body.data.attributes.failed.map((f: { documentId: string }) => f.documentId)).toEqual([documentId]);
    expect((await row(documentId)).renewal_failures).toBe(2);
    expect(await failureLogs(documentId)).toHaveLength(2);

    const before = await versions(documentId);
    const previous = tsaKey;
    tsaKey = await issueTsaKey(5 * 365); // the TSA got a certificate that lasts
    try {
      const renewed = await app.api.call('renewLongTermDocuments', { token: w.ownerA.token });
      expect(renewed.body.data.attributes).toEqual({ renewed: [documentId], failed: [] });
    } finally {
      tsaKey = previous;
    }
    const cleared = await row(documentId);
    expect(cleared).toMatchObject({ renewal_failures: 0, last_error: null, stalled_at: null });
    expect(new Date(cleared.next_renewal_at).getTime()).toBeGreaterThan(app.clock.now().getTime());
    expect(await versions(documentId)).toBe(before + 1);
    const pdf = await latestPdf(app, documentId);
    expect(pdfsig(pdf).validations[0]).toBe('Signature is Valid.');
    expect((await app.service.deps.signing.verify(pdf)).allIntact).toBe(true);
  }, 90_000);
});
