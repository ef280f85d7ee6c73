/*
 * Task mails deep-link to the task, and opening the link confirms the e-mail arrival: the task-assigned mail of a
 * sign task links to the signing screen and of another task to the document page at the task, for members and
 * partner users, with a mail token; confirmEmailByMailLink confirms the arrival for the user it was mailed to at
 * the address they still have, and for nobody else (another user, a changed address, an altered or expired token).
 */
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAIL_LINK_VALIDITY_DAYS } from '../../core/modules/signing/mail-link.ts';
import { signIn } from '../helpers/accounts.ts';
import type { TestApp } from '../helpers/app.ts';
import { recipientOf, waitForMail } from '../helpers/mail.ts';
import { lastLog } from '../helpers/org-admin.ts';
import { signTaskCall } from '../helpers/signing.ts';
import { groupTask, newDocument, partnerTask, plan, seedTaskWorld, startTaskApp } from '../helpers/tasks.ts';

vi.setConfig({ testTimeout: 60_000 });

let app: TestApp;
beforeAll(async () => {
  app = await startTaskApp();
});
afterAll(() => app.close());

const knex = () => app.service.deps.knex;

const mailTo = (email: string, subject: RegExp) =>
  waitForMail(app, (m: ParsedMail) => recipientOf(m).includes(email) && subject.test(m.subject ?? ''), 15_000);

/** The one link of a task mail, parsed. */
function linkIn(mail: ParsedMail): URL {
  const match = /(https?:\/\/\S+\/organizations\/documents\/\S+)/.exec(mail.text ?? '');
  if (!match) throw new Error(`no task link in: ${mail.text}`);
  return new URL(match[1]!);
}

const confirm = (token: string, mailToken: string) =>
  app.api.call('confirmEmailByMailLink', {
    token,
    body: { data: { type: 'EmailConfirmation', attributes: { token: mailToken } } },
  });

const confirmedAddress = async (userId: string) =>
  ((await knex()('users').where({ id: userId }).first('email_confirmed_address')).email_confirmed_address as
    string | null) ?? null;

describe('task mails link to the task with a mail token', () => {
  it('links members to the signing screen and partners to the document page at their task; the token confirms only its own user and address', async () => {
    const w = await seedTaskWorld(app);
    const documentId = await newDocument(app, w.ownerA.token, w.flowId, 'clean', '秘密保持契約書');
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1, { signatureType: 'operator' }),
      partnerTask(2, 'approve', w.ownerB.organizationId),
    ]);
    const signTask = tasks.find((t) => t.attributes.order === 1)!.id;
    const approveTask = tasks.find((t) => t.attributes.order === 2)!.id;

    // The member's mail goes to the signing screen of the task, not to the flow.
    const mail = await mailTo(w.userA1.email, /秘密保持契約書/);
    const link = linkIn(mail);
    expect(link.origin).toBe(app.service.deps.config.publicUrl);
    expect(link.pathname).toBe(`/organizations/documents/${documentId}/tasks/${signTask}/sign`);
    expect(mail.text).not.toContain(`/business-flows/${w.flowId}`);
    const mailToken = link.searchParams.get('mailToken')!;
    expect(mailToken).toMatch(/^[A-Za-z0-9_-]{27}\.[A-Za-z0-9_-]{43}$/);
    // The token is a credential: it waits sealed until the mail is sent, then is gone from the stored message.
    const stored = await knex()('outgoing_messages').where({ to_address: w.userA1.email, kind: 'task-assigned' });
    expect(JSON.stringify(stored.map((m) => m.params))).not.toContain(mailToken);
    const ownerMail = await mailTo(w.ownerA.email, /秘密保持契約書/);
    const ownerToken = linkIn(ownerMail).searchParams.get('mailToken')!;
    expect(ownerToken).not.toBe(mailToken);

    expect(await confirmedAddress(w.userA1.id)).toBeNull();
    // Another user's token confirms nothing for the caller (nor for the user it was mailed to).
    const other = await confirm(w.userA2.token, mailToken);
    expect(other.status).toBe(200);
    expect(other.body.data.attributes).toEqual({ confirmed: false, byThisLink: false });
    expect(await confirmedAddress(w.userA2.id)).toBeNull();
    expect(await confirmedAddress(w.userA1.id)).toBeNull();
    // An altered token confirms nothing.
    const altered = `${mailToken.slice(0, 40)}${mailToken[40] === 'A' ? 'B' : 'A'}${mailToken.slice(41)}`;
    expect((await confirm(w.userA1.token, altered)).body.data.attributes.confirmed).toBe(false);
    // Mailed to an address the user no longer has: nothing.
    const ownerEmail = w.ownerA.email;
    await knex()('users')
      .where({ id: w.ownerA.ownerId })
      .update({ email: `moved-${ownerEmail}` });
    expect((await confirm(w.ownerA.token, ownerToken)).body.data.attributes.confirmed).toBe(false);
    expect(await confirmedAddress(w.ownerA.ownerId)).toBeNull();
    await knex()('users').where({ id: w.ownerA.ownerId }).update({ email: ownerEmail });

    // Its own user at the address it was mailed to: confirmed, logged, and repeatable without a second log entry.
    const own = await confirm(w.userA1.token, mailToken);
    expect(own.body.data.attributes).toEqual({ confirmed: true, byThisLink: true });
    expect(await confirmedAddress(w.userA1.id)).toBe(w.userA1.email);
    const log = await lastLog(app, 'user.email_confirmed', w.userA1.id);
    expect(log.details).toMatchObject({ email: w.userA1.email, via: 'mail-link' });
    expect((await confirm(w.userA1.token, mailToken)).body.data.attributes).toEqual({
      confirmed: true,
      byThisLink: false,
    });

    // No confirmation mail was needed: the member signs at once.
    const signed = await signTaskCall(app, w.userA1.token, signTask);
    expect(signed.status).toBe(200);

    // The partner's approve task: the document page, open at the task.
    const partnerMail = await mailTo(w.userB.email, /秘密保持契約書/);
    const partnerLink = linkIn(partnerMail);
    expect(partnerLink.pathname).toBe(`/organizations/documents/${documentId}`);
    expect(partnerLink.searchParams.get('task')).toBe(approveTask);
    const partnerToken = partnerLink.searchParams.get('mailToken')!;
    expect((await confirm(w.userB.token, partnerToken)).body.data.attributes.byThisLink).toBe(true);
    expect(await confirmedAddress(w.userB.id)).toBe(w.userB.email);

    // Expired: the owner's token, opened after its validity, confirms nothing.
    app.clock.advance((MAIL_LINK_VALIDITY_DAYS * 24 + 1) * 3600_000);
    try {
      // (The earlier access token has expired by then too: sign in again.)
      const { authorizationToken } = await signIn(app, w.ownerA.loginId, w.ownerA.password);
      const late = await confirm(authorizationToken, ownerToken);
      expect(late.body.data.attributes).toEqual({ confirmed: false, byThisLink: false });
      expect(await confirmedAddress(w.ownerA.ownerId)).toBeNull();
    } finally {
      app.clock.advance(-(MAIL_LINK_VALIDITY_DAYS * 24 + 1) * 3600_000);
    }
  });

  it('refuses a malformed token body (422) and a call without a session (401)', async () => {
    const w = await seedTaskWorld(app);
    expect((await confirm(w.userA1.token, 'short')).status).toBe(422);
    const anonymous = await app.api.call('confirmEmailByMailLink', {
      body: { data: { type: 'EmailConfirmation', attributes: { token: 'x'.repeat(71) } } },
    });
    expect(anonymous.status).toBe(401);
  });
});
