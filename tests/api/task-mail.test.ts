import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { readOutbox, recipientOf, waitForMail } from '../helpers/mail.ts';
import { lastLog } from '../helpers/org-admin.ts';
import {
  groupTask,
  newDocument,
  partnerTask,
  plan,
  seedTaskWorld,
  startTaskApp,
  step,
  type TaskWorld,
} from '../helpers/tasks.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTaskApp();
});
afterAll(() => app.close());

const to = (email: string, subject: RegExp) => (m: ParsedMail) =>
  recipientOf(m).includes(email) && subject.test(m.subject ?? '');
const mailsTo = async (email: string, subject: RegExp) => (await readOutbox(app)).filter(to(email, subject));

/** A:G1 approves (1), B reads (2). */
async function approveThenRead(w: TaskWorld, name = '売買契約書') {
  const documentId = await newDocument(app, w.ownerA.token, w.flowId, 'clean', name);
  const tasks = await plan(app, w.ownerA.token, documentId, [
    groupTask(1, 'approve', w.g1),
    partnerTask(2, 'read', w.ownerB.organizationId),
  ]);
  const approve = tasks.find((t) => t.attributes.order === 1)!.id;
  const read = tasks.find((t) => t.attributes.order === 2)!.id;
  return { documentId, approve, read };
}

describe('mail on each task step', () => {
  it('sends task-assigned to the assignees of each order as it becomes active, in their language', async () => {
    const w = await seedTaskWorld(app);
    await app.service.deps.knex('users').where({ id: w.userB.id }).update({ locale: 'en' });
    const { documentId, approve } = await approveThenRead(w);
    const assigned = await waitForMail(app, to(w.userA1.email, /書類「売買契約書」のタスク（承認）/));
    // The link opens the document at the assignee's task, with the token that confirms the mail arrived.
    expect(assigned.text).toContain(`/organizations/documents/${documentId}?task=${approve}&mailToken=`);
    expect(assigned.text).toContain('Deals with B');
    await waitForMail(app, to(w.ownerA.email, /書類「売買契約書」のタスク（承認）/));
    expect(await mailsTo(w.userB.email, /task/i)).toHaveLength(0);
    await step(app, w.userA1.token, 'approveTask', approve);
    const partner = await waitForMail(app, to(w.userB.email, /A task \(read\) is waiting for you: 売買契約書/));
    expect(partner.text).toContain('Dear ');
    await waitForMail(app, to(w.ownerB.email, /書類「売買契約書」のタスク（閲覧）/));
    expect(await mailsTo(w.userA2.email, /タスク/)).toHaveLength(0);
  });

  it('sends document-remanded with the reason to the target order’s assignees and the document’s creator', async () => {
    const w = await seedTaskWorld(app);
    const documentId = await newDocument(app, w.userA1.token, w.flowId, 'clean', '発注書');
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1),
      groupTask(2, 'approve', w.g2),
    ]);
    await step(app, w.userA1.token, 'approveTask', tasks.find((t) => t.attributes.order === 1)!.id);
    const remand = await step(app, w.userA2.token, 'remandDocument', tasks.find((t) => t.attributes.order === 2)!.id, {
      reason: '単価を見直してください',
      toOrder: 1,
    });
    expect(remand.status).toBe(200);
    const mail = await waitForMail(app, to(w.userA1.email, /書類「発注書」が差し戻されました/));
    expect(mail.text).toContain('単価を見直してください');
    expect(mail.text).toContain('順番1');
    await waitForMail(app, to(w.ownerA.email, /書類「発注書」が差し戻されました/));
    expect(await mailsTo(w.userA2.email, /差し戻されました/)).toHaveLength(0);
  });

  it('sends document-cancelled with the reason to every party of the flow', async () => {
    const w = await seedTaskWorld(app);
    const { approve } = await approveThenRead(w, '請求書');
    await step(app, w.userA1.token, 'cancelTask', approve, { reason: '重複して作成したため' });
    const partner = await waitForMail(app, to(w.userB.email, /書類「請求書」が取り消されました/));
    expect(partner.text).toContain('重複して作成したため');
    await waitForMail(app, to(w.ownerB.email, /書類「請求書」が取り消されました/));
    await waitForMail(app, to(w.userA1.email, /書類「請求書」が取り消されました/));
  });

  it('sends business-flow-completed to every party of both organizations when the flow auto-completes', async () => {
    const w = await seedTaskWorld(app);
    const { approve, read } = await approveThenRead(w);
    await step(app, w.userA1.token, 'approveTask', approve);
    expect((await step(app, w.userB.token, 'readTask', read)).status).toBe(200);
    for (const email of [w.ownerA.email, w.userA1.email]) {
      const mail = await waitForMail(app, to(email, /業務フロー「売買契約 2026」が完了しました/));
      expect(mail.text).toContain(`/business-flows/${w.flowId}`);
    }
    // The partner's users are sent to the partner view of the flow.
    for (const email of [w.ownerB.email, w.userB.email]) {
      const mail = await waitForMail(app, to(email, /業務フロー「売買契約 2026」が完了しました/));
      expect(mail.text).toContain(`/outer-business-flows/${w.flowId}`);
    }
  });

  it('queues no mail when the workspace’s notification is off, while the operation log still records each step', async () => {
    const off = await seedTaskWorld(app, { mailNotification: false });
    const { documentId, approve, read } = await approveThenRead(off);
    await step(app, off.userA1.token, 'approveTask', approve);
    await step(app, off.userB.token, 'readTask', read);
    expect(await lastLog(app, 'task.approved', documentId)).toBeTruthy();
    expect(await lastLog(app, 'task.read', documentId)).toBeTruthy();
    expect(await lastLog(app, 'document.completed', documentId)).toBeTruthy();
    // A mail queued after these steps arrives, so anything they had queued would have been delivered by now.
    const on = await seedTaskWorld(app);
    await approveThenRead(on, '目印');
    await waitForMail(app, to(on.userA1.email, /目印/));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const email of [off.ownerA.email, off.userA1.email, off.ownerB.email, off.userB.email]) {
      expect(await mailsTo(email, /タスク|task|完了|取り消|差し戻/i), email).toHaveLength(0);
    }
    const queued = await app.service.deps.knex.raw(
      `SELECT count(*)::int AS n FROM pgboss.job j JOIN outgoing_messages m ON m.id = j.id
       WHERE j.name = 'mail.send' AND m.to_address = ANY(?) AND m.kind = ANY(?)`,
      [
        [off.ownerA.email, off.userA1.email, off.ownerB.email, off.userB.email],
        ['task-assigned', 'document-remanded', 'document-cancelled', 'business-flow-completed'],
      ],
    );
    expect(queued.rows[0].n).toBe(0);
  });
});
