/*
 * Signing holds no database transaction while it waits (DESIGN.md "Untrusted input and CPU work"): the TSA here is
 * a real RFC 3161 server over HTTP (TSA_URL) answering with the app's own local TSA key, but only when the test lets
 * each request through. While a signature waits at it, other requests (the caller's profile, a rename of the very
 * document being signed) complete, and on PostgreSQL no session of the app's database has a transaction open.
 * Parallel signers of one order both sign: the one that finds a newer version when it records signs again on it,
 * at most three times in all (then 409 UPDATED_BY_ANOTHER_USER, with nothing stored). A long-term renewal waits
 * at the TSA the same way and extends again the version a signer stored meanwhile.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { renewDue } from '../../core/modules/signing/long-term.ts';
import { MAX_ATTEMPTS } from '../../core/modules/signing/sign-task.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { respondToTimestampRequest } from '../../core/signing/tsa.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { confirmEmailOf, latestPdf, pdfsig, signTaskCall } from '../helpers/signing.ts';
import { groupTask, newDocument, plan, seedTaskWorld, step, type TaskWorld } from '../helpers/tasks.ts';

let app: TestApp;
let server: Server;

/** The TSA double: every request is held until the test releases it by its arrival number (1, 2, …). */
const tsa = {
  arrivals: 0,
  held: new Map<number, () => void>(),
  /** Answers at once instead of holding (set while a test does not care). */
  open: true,
};

/** Resolves once `count` timestamp requests have arrived in all. */
async function arrivals(count: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (tsa.arrivals < count) {
    if (Date.now() > deadline) throw new Error(`${tsa.arrivals} of ${count} timestamp requests arrived`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function release(arrival: number): void {
  const answer = tsa.held.get(arrival);
  if (!answer) throw new Error(`timestamp request ${arrival} is not held`);
  tsa.held.delete(arrival);
  answer();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      tsa.arrivals += 1;
      if (!tsa.open) await new Promise<void>((resolve) => tsa.held.set(tsa.arrivals, resolve));
      const key = await app.service.deps.signing.pki.key('local-tsa');
      respondToTimestampRequest(Buffer.concat(chunks), key, app.clock.now()).then(
        (reply) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(Buffer.from(reply)),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  app = await startApp({
    plugins: BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name)),
    env: {
      TSA_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`,
      TSA_TIMEOUT_MS: '60000',
    },
  });
});
afterAll(async () => {
  for (const answer of tsa.held.values()) answer();
  await app?.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const knex = () => app.service.deps.knex;

/** Holds every timestamp request from now on; returns the arrival number the next request will have. */
function holdTsa(): number {
  tsa.open = false;
  return tsa.arrivals + 1;
}

/** Lets every held request through and answers later ones at once. */
function openTsa(): void {
  tsa.open = true;
  for (const arrival of [...tsa.held.keys()]) release(arrival);
}

async function world(): Promise<TaskWorld> {
  const w = await seedTaskWorld(app);
  for (const user of [w.userA1, w.userA2]) await confirmEmailOf(app, user.id);
  return w;
}

/**
 * A document whose order 1 (an approval) is done and whose order 2 holds sign tasks for the given groups, in
 * parallel; returns the document and the sign tasks in the order of `groups` (the API lists parallel tasks in no
 * particular order).
 */
async function parallelSigners(w: TaskWorld, groups: string[]) {
  const documentId = await newDocument(app, w.ownerA.token, w.flowId);
  const tasks = await plan(app, w.ownerA.token, documentId, [
    groupTask(1, 'approve', w.g1),
    ...groups.map((group) => groupTask(2, 'sign', group, { signatureType: 'operator' })),
  ]);
  const approval = tasks.find((t) => t.attributes.order === 1)!;
  expect((await step(app, w.userA1.token, 'approveTask', approval.id)).status).toBe(200);
  const open = tasks.filter((t) => t.attributes.order === 2);
  const signTasks = groups.map((group) => {
    const index = open.findIndex((t) => t.attributes.assignee.id === group);
    return open.splice(index, 1)[0]!.id;
  });
  return { documentId, signTasks };
}

/** The app's sessions with a transaction open for more than `ms` (on PostgreSQL). */
async function longTransactions(ms: number): Promise<{ state: string; query: string }[]> {
  const result = await knex().raw(
    `select state, query from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
        and xact_start is not null and xact_start < now() - make_interval(secs => ?)`,
    [ms / 1000],
  );
  return result.rows;
}

/** Settles within `ms`, or rejects: a request that waits for the signing's locks or connection never settles. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  ]);
}

const signedVersions = (documentId: string) =>
  knex()('document_versions').where({ document_id: documentId, kind: 'signature' }).orderBy('version');

describe('a signature waiting for the TSA', () => {
  it('holds no transaction: other requests, a rename of the same document included, complete meanwhile', async () => {
    const w = await world();
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const [task] = await plan(app, w.ownerA.token, documentId, [groupTask(1, 'sign', w.g1)]);
    const first = holdTsa();
    let settled = false;
    const signing = signTaskCall(app, w.userA1.token, task!.id).finally(() => {
      settled = true;
    });
    try {
      await arrivals(first);
      await new Promise((resolve) => setTimeout(resolve, 1000)); // the signature has waited a second by now
      if (inject('dbKind') === 'postgres') expect(await longTransactions(500)).toEqual([]);

      const me = await within(10_000, app.api.call('getCurrentUser', { token: w.ownerA.token }));
      expect(me.status).toBe(200);
      const { lock_version: lockVersion } = await knex()('documents').where({ id: documentId }).first('lock_version');
      const rename = await within(
        10_000,
        app.api.call('updateDocument', {
          token: w.ownerA.token,
          params: { documentId },
          body: { data: { type: 'Document', attributes: { lockVersion, name: '署名中に改名' } } },
        }),
      );
      expect(rename.status).toBe(200);
      expect(settled).toBe(false); // all of that while the TSA still holds the signature's request
    } finally {
      openTsa();
    }

    const signed = await signing;
    expect(signed.status).toBe(200);
    expect(signed.body.data.attributes.status).toBe('completed');
    expect(pdfsig(await latestPdf(app, documentId)).validations).toEqual(['Signature is Valid.']);
    expect((await knex()('documents').where({ id: documentId }).first('name')).name).toBe('署名中に改名');
  });
});

describe('parallel signers of one order', () => {
  it('both sign: the one that records second signs again on the newer version', async () => {
    const w = await world();
    const { documentId, signTasks } = await parallelSigners(w, [w.g1, w.g2]);
    const first = holdTsa();
    const signing = [
      signTaskCall(app, w.userA1.token, signTasks[0]!),
      signTaskCall(app, w.userA2.token, signTasks[1]!),
    ];
    try {
      await arrivals(first + 1); // both signatures of version 1 wait at the TSA at once
    } finally {
      openTsa();
    }
    const results = await Promise.all(signing);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    // Two signatures of version 1, and one more by whoever found version 2 when recording.
    expect(tsa.arrivals - first + 1).toBe(3);

    const versions = await signedVersions(documentId);
    expect(versions.map((v) => v.version)).toEqual([2, 3]);
    expect(new Set(versions.map((v) => v.task_id))).toEqual(new Set(signTasks));
    const ledger = await knex()('sign_records').where({ document_id: documentId }).orderBy('document_revision');
    expect(ledger.map((r) => [r.document_revision, r.document_hash])).toEqual(
      versions.map((v) => [v.version, v.sha256]),
    );
    const pdf = await latestPdf(app, documentId);
    expect(pdfsig(pdf).validations).toEqual(['Signature is Valid.', 'Signature is Valid.']);
    expect((await knex()('documents').where({ id: documentId }).first('status')).status).toBe('completed');
  });

  it(`gives up with 409 UPDATED_BY_ANOTHER_USER after ${MAX_ATTEMPTS} signatures that each lost to a newer version`, async () => {
    const w = await world();
    // One slow signer and one more signer for each of its attempts, each storing a newer version while it waits.
    const { documentId, signTasks } = await parallelSigners(w, [w.g1, ...Array<string>(MAX_ATTEMPTS).fill(w.g2)]);
    const [slow, ...others] = signTasks;
    let arrival = holdTsa();
    try {
      const slowSigning = signTaskCall(app, w.userA1.token, slow!);
      for (const other of others) {
        const slowAttempt = arrival;
        await arrivals(slowAttempt); // the slow signer's attempt waits at the TSA
        const fast = signTaskCall(app, w.userA2.token, other);
        await arrivals(slowAttempt + 1);
        release(slowAttempt + 1);
        expect((await fast).status).toBe(200); // a newer version is stored while the slow signature waits
        release(slowAttempt);
        arrival = slowAttempt + 2;
      }
      const gaveUp = await slowSigning;
      expect([gaveUp.status, gaveUp.body.errors[0].code]).toEqual([409, 'UPDATED_BY_ANOTHER_USER']);
    } finally {
      openTsa();
    }
    expect(await signedVersions(documentId)).toHaveLength(MAX_ATTEMPTS);
    expect(await knex()('sign_records').where({ document_id: documentId })).toHaveLength(MAX_ATTEMPTS);
    expect((await knex()('tasks').where({ id: slow }).first('status')).status).toBe('active');

    const again = await signTaskCall(app, w.userA1.token, slow!);
    expect(again.status).toBe(200);
    expect(pdfsig(await latestPdf(app, documentId)).validations).toEqual(
      Array(MAX_ATTEMPTS + 1).fill('Signature is Valid.'),
    );
  }, 60_000);
});

describe('a long-term renewal waiting for the TSA', () => {
  it('holds no transaction, lets a signer sign the document meanwhile, and renews that newer version', async () => {
    const w = await world();
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1, { signatureType: 'long-term' }),
      groupTask(2, 'sign', w.g2, { signatureType: 'operator' }),
    ]);
    const byOrder = (order: number) => tasks.find((t) => t.attributes.order === order)!.id;
    expect((await signTaskCall(app, w.userA1.token, byOrder(1))).status).toBe(200);
    // Due: the renewal margin before the TSA certificate's expiry has come.
    await knex()('long_term_documents')
      .where({ document_id: documentId })
      .update({ next_renewal_at: new Date(0) });

    const renewalArrival = holdTsa();
    const renewing = renewDue(app.service.deps, w.ownerA.organizationId);
    try {
      await arrivals(renewalArrival);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (inject('dbKind') === 'postgres') expect(await longTransactions(500)).toEqual([]);
      expect((await within(10_000, app.api.call('getCurrentUser', { token: w.ownerA.token }))).status).toBe(200);
      const signing = signTaskCall(app, w.userA2.token, byOrder(2));
      await arrivals(renewalArrival + 1);
      release(renewalArrival + 1);
      expect((await within(10_000, signing)).status).toBe(200); // version 3, while the renewal waits
      release(renewalArrival); // the renewal of version 2 finds version 3 and extends that one
      await arrivals(renewalArrival + 2);
    } finally {
      openTsa();
    }
    expect(await renewing).toEqual({ renewed: [documentId], failed: [] });

    const versions = await knex()('document_versions').where({ document_id: documentId }).orderBy('version');
    expect(versions.map((v) => [v.kind, v.signature_type, v.scan_detail])).toEqual([
      ['upload', null, null],
      ['signature', 'long-term', 'signed revision of version 1'],
      ['signature', 'operator', 'signed revision of version 2'],
      ['ltv', null, 'long-term renewal of version 3'],
    ]);
    const report = await app.api.call('getDocumentSignatures', { token: w.ownerA.token, params: { documentId } });
    expect(report.body.data.attributes.allIntact).toBe(true);
    expect(report.body.data.attributes.signatures.map((s: any) => [s.kind, s.integrity])).toEqual([
      ['signature', 'valid'],
      ['document-timestamp', 'valid'],
      ['signature', 'valid'],
      ['document-timestamp', 'valid'],
    ]);
    const row = await knex()('long_term_documents').where({ document_id: documentId }).first();
    expect(new Date(row.next_renewal_at).getTime()).toBeGreaterThan(Date.now());
  });
});
