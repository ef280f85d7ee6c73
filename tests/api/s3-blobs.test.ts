/*
 * The service with its blobs on an S3-compatible store (s3rver in a child process): an upload lands in the bucket
 * and not in the data folder, the malware scan reads it from there, a download streams it back, a signature stores
 * the signed revision there, readiness asks the bucket, and the orphan sweeper cleans the bucket.
 */
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Of } from '../../core/files/blob-store.ts';
import { S3BlobStore } from '../../core/files/s3-blob-store.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { uploadPdf } from '../helpers/documents.ts';
import { buildPdf } from '../helpers/pdf.ts';
import { type S3TestServer, s3Env, startS3Server } from '../helpers/s3-server.ts';
import { confirmEmailOf, latestPdf, pdfsig, signTaskCall } from '../helpers/signing.ts';
import { groupTask, plan, seedTaskWorld } from '../helpers/tasks.ts';

let server: S3TestServer;
let app: TestApp;
beforeAll(async () => {
  server = await startS3Server();
  app = await startApp({
    env: {
      ...s3Env(server, { prefix: 'keiyaku/test' }),
      // The sweeper looks every second; only what is older than ten minutes (the aged orphan below) is its.
      KEIYAKU_BLOB_SWEEP_INTERVAL_SECONDS: '1',
      KEIYAKU_BLOB_SWEEP_GRACE_SECONDS: '600',
    },
  });
});
afterAll(async () => {
  await app?.close();
  await server?.close();
});

const knex = () => app.service.deps.knex;
const keyOf = (sha256: string) => `keiyaku/test/blobs/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
const scanStatus = async (documentId: string) =>
  (await knex()('document_versions').where({ document_id: documentId }).orderBy('version', 'desc').first())
    .scan_status as string;

describe('blobs on S3', () => {
  it('keeps an upload in the bucket only, scans it from there and streams it back on download', async () => {
    expect(app.service.deps.files).toBeInstanceOf(S3BlobStore);
    const w = await seedTaskWorld(app);
    const pdf = await buildPdf({ text: 'stored on S3', pages: 2 });
    const document = await uploadPdf(app, w.ownerA.token, w.flowId, { bytes: pdf, fileName: 'S3 契約書.pdf' });
    const sha256 = document.attributes.currentVersion.sha256 as string;
    expect(sha256).toBe(sha256Of(pdf));
    expect(readFileSync(server.objectFile(keyOf(sha256))!)).toEqual(pdf);
    expect(existsSync(path.join(app.dataDir, 'blobs'))).toBe(false);

    // The malware-scan plugin's job reads the blob through the same store.
    await expect.poll(() => scanStatus(document.id), { timeout: 30_000, interval: 200 }).toBe('clean');
    const response = await fetch(`${app.url}/core/v1/documents/${document.id}/file`, {
      headers: { authorization: `Bearer ${w.ownerA.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(pdf.length));
    expect(Buffer.from(await response.arrayBuffer())).toEqual(pdf);
  });

  it('signs a task: the signed revision is written to the bucket and validates', async () => {
    const w = await seedTaskWorld(app);
    await confirmEmailOf(app, w.userA1.id);
    const document = await uploadPdf(app, w.ownerA.token, w.flowId, { name: '署名テスト' });
    await expect.poll(() => scanStatus(document.id), { timeout: 30_000, interval: 200 }).toBe('clean');
    const [task] = await plan(app, w.ownerA.token, document.id, [
      groupTask(1, 'sign', w.g1, { signatureType: 'operator' }),
    ]);
    const signed = await signTaskCall(app, w.userA1.token, task!.id);
    expect(signed.status).toBe(200);
    expect(signed.body.meta.document.status).toBe('completed');

    const versions = await knex()('document_versions').where({ document_id: document.id }).orderBy('version');
    expect(versions.map((v) => v.kind)).toEqual(['upload', 'signature']);
    for (const version of versions) {
      const file = server.objectFile(keyOf(version.sha256));
      expect(file).not.toBeNull();
      expect(sha256Of(readFileSync(file!))).toBe(version.sha256);
    }
    const pdf = await latestPdf(app, document.id);
    expect(pdfsig(pdf).validations).toEqual(['Signature is Valid.']);
    expect(existsSync(path.join(app.dataDir, 'blobs'))).toBe(false);
  });

  it('breaks a download off when the bytes in the bucket were altered', async () => {
    const w = await seedTaskWorld(app);
    const pdf = await buildPdf({ text: 'altered in the bucket', pages: 30 });
    const document = await uploadPdf(app, w.ownerA.token, w.flowId, { bytes: pdf });
    await expect.poll(() => scanStatus(document.id), { timeout: 30_000, interval: 200 }).toBe('clean');
    const tampered = Buffer.from(pdf);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 10) ^ 1, tampered.length - 10);
    writeFileSync(server.objectFile(keyOf(sha256Of(pdf)))!, tampered);
    // The response breaks off (before its headers or before its last bytes): the client never holds the altered file.
    const download = fetch(`${app.url}/core/v1/documents/${document.id}/file`, {
      headers: { authorization: `Bearer ${w.ownerA.token}` },
    }).then((response) => response.arrayBuffer());
    await expect(download).rejects.toThrow();
  });

  it('reports the bucket among the readiness checks', async () => {
    const ready = await app.api.call('getReadiness');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.blobStore).toBe('ok');
  });

  it('sweeps an orphan left in the bucket once it is past its grace period, and keeps referenced blobs', async () => {
    const { files } = app.service.deps;
    const orphan = await files.put(Buffer.from('a blob whose row never committed'));
    const young = await files.put(Buffer.from('a blob whose row is about to commit'));
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(server.objectFile(keyOf(orphan.sha256))!, hourAgo, hourAgo);
    const referenced = await knex()('document_versions').select('sha256');
    for (const { sha256 } of referenced) utimesSync(server.objectFile(keyOf(sha256))!, hourAgo, hourAgo);

    await expect.poll(() => files.exists(orphan.sha256), { timeout: 30_000, interval: 250 }).toBe(false);
    expect(await files.exists(young.sha256)).toBe(true);
    for (const { sha256 } of referenced) expect(await files.exists(sha256)).toBe(true);
  });
});
