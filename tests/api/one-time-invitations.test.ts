import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInOwner } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { lastLog } from '../helpers/org-admin.ts';
import { guestEmail, inviteBody, inviteByEmail, linkOf, lockBody, mailsTo } from '../helpers/one-time.ts';
import { seedTaskWorld, type TaskWorld } from '../helpers/tasks.ts';

// Invitations of one-time users, as members manage them: invite by e-mail or QR code, re-send, cancel, re-invite,
// the lists, who may, and that another organization sees none of it.

let app: TestApp;
let w: TaskWorld;
beforeAll(async () => {
  app = await startApp();
  w = await seedTaskWorld(app);
});
afterAll(() => app?.close());

const invitationOf = async (id: string) =>
  (await app.service.deps.knex('one_time_invitations').where({ id }).first()) as Record<string, any>;

describe('inviting by e-mail', () => {
  it('creates the one-time user and the invitation, and mails the link and the 16-character code', async () => {
    const email = guestEmail();
    const invitation = await inviteByEmail(app, w.userA1.token, w.flowId, email, '鈴木 一郎');
    expect(invitation.attributes).toMatchObject({
      name: '鈴木 一郎',
      email,
      channel: 'email',
      status: 'invited',
      sentCount: 1,
      businessFlowId: w.flowId,
      businessFlowName: '売買契約 2026',
    });
    const expires = new Date(invitation.attributes.linkExpiresAt).getTime();
    expect(expires - app.clock.now().getTime()).toBeGreaterThan(13.9 * 24 * 3600_000);
    expect(expires - app.clock.now().getTime()).toBeLessThanOrEqual(14 * 24 * 3600_000);

    const [mail] = await mailsTo(app, email, 'invitation');
    const text = mail!.text ?? '';
    expect(text).toContain('株式会社A'); // the inviting organization
    expect(text).toContain('メンバー'); // the inviting member's name
    expect(text).toContain('売買契約 2026');
    const link = linkOf(mail!);
    expect(link.url).toContain('/onetime/auth?token=');
    expect(link.accessCode).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}(-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}){3}$/);

    // The link and the code were secret parameters: nothing stored keeps them in clear.
    const { knex } = app.service.deps;
    const stored = JSON.stringify(await knex('outgoing_messages').select('*'));
    expect(stored).not.toContain(link.token);
    expect(stored).not.toContain(link.accessCode);
    const row = await invitationOf(invitation.id);
    expect(row.link_token_hash).not.toBe(link.token);
    expect(JSON.stringify(row)).not.toContain(link.accessCode);

    const log = await lastLog(app, 'one_time_invitation.created', invitation.id);
    expect(log.actor_user_id).toBe(w.userA1.id);
    expect(log.details).toMatchObject({ email, businessFlowId: w.flowId, channel: 'email' });
  });

  it('lists the invitation on the flow and the one-time user on the workspace, not among the participants', async () => {
    const email = guestEmail();
    const invitation = await inviteByEmail(app, w.ownerA.token, w.flowId, email);
    const flowList = await app.api.call('listOneTimeInvitations', {
      token: w.userA1.token,
      params: { businessFlowId: w.flowId },
    });
    expect(flowList.status).toBe(200);
    expect(flowList.body.data.map((i: { id: string }) => i.id)).toContain(invitation.id);
    const users = await app.api.call('listOneTimeUsers', {
      token: w.ownerA.token,
      params: { workspaceId: w.workspaceId },
    });
    expect(users.status).toBe(200);
    const user = users.body.data.find((u: { attributes: { email: string } }) => u.attributes.email === email);
    expect(user.attributes.status).toBe('invited');
    expect(user.attributes.invitations).toHaveLength(1);
    expect(user.attributes.invitations[0].attributes).toMatchObject({
      businessFlowId: w.flowId,
      businessFlowName: '売買契約 2026',
      channel: 'email',
      status: 'invited',
      sentCount: 1,
    });
    const workspace = await app.api.call('getWorkspace', {
      token: w.ownerA.token,
      params: { workspaceId: w.workspaceId },
    });
    expect(workspace.status).toBe(200);
    const participant = await app.service.deps
      .knex('workspace_participants')
      .where({ workspace_id: w.workspaceId, one_time_user_id: user.id })
      .first();
    expect(participant.kind).toBe('one_time_user');
  });

  it('reuses the one-time user of the same address (any case) and refuses a second invitation to one flow', async () => {
    const email = guestEmail('Reuse');
    const first = await inviteByEmail(app, w.ownerA.token, w.flowId, email);
    const again = await app.api.call('inviteOneTimeUser', {
      token: w.ownerA.token,
      params: { businessFlowId: w.flowId },
      body: inviteBody({ channel: 'email', name: '別名', email: email.toUpperCase() }),
    });
    expect([again.status, again.body.errors[0].code]).toEqual([409, 'ONE_TIME_INVITATION_EXISTS']);
    const { knex } = app.service.deps;
    const [other] = await knex('business_flows')
      .insert({ organization_id: w.ownerA.organizationId, workspace_id: w.workspaceId, name: '別の業務フロー' })
      .returning('id');
    const second = await inviteByEmail(app, w.ownerA.token, other.id, email.toUpperCase());
    expect(second.attributes.oneTimeUserId).toBe(first.attributes.oneTimeUserId);
  });

  it('checks the fields: e-mail channel needs name and a valid address; QR takes no address', async () => {
    const call = (attributes: Record<string, unknown>) =>
      app.api.call('inviteOneTimeUser', {
        token: w.ownerA.token,
        params: { businessFlowId: w.flowId },
        body: inviteBody(attributes),
      });
    const noEmail = await call({ channel: 'email', name: '名前' });
    expect(noEmail.status).toBe(422);
    expect(noEmail.body.errors[0].source.pointer).toBe('/data/attributes/email');
    const bad = await call({ channel: 'email', name: '名前', email: 'not-an-address' });
    expect([bad.status, bad.body.errors[0].code]).toEqual([422, 'EMAIL_INVALID']);
    const noName = await call({ channel: 'email', email: guestEmail() });
    expect(noName.body.errors[0].source.pointer).toBe('/data/attributes/name');
    const qrWithEmail = await call({ channel: 'qr', email: guestEmail() });
    expect(qrWithEmail.status).toBe(422);
  });
});

describe('who may invite', () => {
  it('refuses a member who sees the flow but may not edit the workspace (403)', async () => {
    const response = await app.api.call('inviteOneTimeUser', {
      token: w.userA2.token,
      params: { businessFlowId: w.flowId },
      body: inviteBody({ channel: 'email', name: '名前', email: guestEmail() }),
    });
    expect([response.status, response.body.errors[0].code]).toEqual([403, 'WORKSPACE_EDIT_NOT_ALLOWED']);
  });

  it('lets an editable partner invite, and not a read-only one', async () => {
    const body = inviteBody({ channel: 'email', name: '名前', email: guestEmail() });
    const readOnly = await app.api.call('inviteOneTimeUser', {
      token: w.ownerB.token,
      params: { businessFlowId: w.flowId },
      body,
    });
    expect(readOnly.status).toBe(403);
    const { knex } = app.service.deps;
    await knex('workspace_participants')
      .where({ workspace_id: w.workspaceId, partner_organization_id: w.ownerB.organizationId })
      .update({ is_editable: true });
    try {
      const email = guestEmail();
      const invited = await inviteByEmail(app, w.ownerB.token, w.flowId, email);
      expect(invited.attributes.status).toBe('invited');
      const [mail] = await mailsTo(app, email, 'invitation');
      expect(mail!.text).toContain('株式会社B'); // the partner invited: its name is in the mail
    } finally {
      await knex('workspace_participants')
        .where({ workspace_id: w.workspaceId, partner_organization_id: w.ownerB.organizationId })
        .update({ is_editable: false });
    }
  });

  it('answers 404 to another organization on every operation, and changes nothing', async () => {
    const stranger = await signedInOwner(app, { organizationName: '無関係株式会社' });
    const invitation = await inviteByEmail(app, w.ownerA.token, w.flowId);
    const before = await invitationOf(invitation.id);
    const lock = lockBody(invitation.attributes.lockVersion);
    const calls: [string, Record<string, unknown>][] = [
      ['listOneTimeUsers', { params: { workspaceId: w.workspaceId } }],
      ['listOneTimeInvitations', { params: { businessFlowId: w.flowId } }],
      [
        'inviteOneTimeUser',
        {
          params: { businessFlowId: w.flowId },
          body: inviteBody({ channel: 'email', name: '名前', email: guestEmail() }),
        },
      ],
      ['cancelOneTimeInvitation', { params: { invitationId: invitation.id }, body: lock }],
      ['resendOneTimeInvitation', { params: { invitationId: invitation.id }, body: lock }],
      ['reinviteOneTimeUser', { params: { invitationId: invitation.id }, body: lock }],
      ['openOneTimeQrCode', { params: { invitationId: invitation.id } }],
    ];
    for (const [operationId, options] of calls) {
      const response = await app.api.call(operationId as never, { token: stranger.token, ...options });
      expect([response.status, response.body.errors[0].code], operationId).toEqual([404, 'NOT_FOUND']);
    }
    expect(await invitationOf(invitation.id)).toEqual(before);
  });
});

describe('re-send, cancel and re-invite', () => {
  it('re-sends a new link and code; the earlier ones die; a stale lockVersion is 409', async () => {
    const email = guestEmail();
    const invitation = await inviteByEmail(app, w.userA1.token, w.flowId, email);
    const [first] = await mailsTo(app, email, 'invitation');
    const stale = await app.api.call('resendOneTimeInvitation', {
      token: w.userA1.token,
      params: { invitationId: invitation.id },
      body: lockBody(invitation.attributes.lockVersion - 1),
    });
    expect([stale.status, stale.body.errors[0].code]).toEqual([409, 'UPDATED_BY_ANOTHER_USER']);
    const resent = await app.api.call('resendOneTimeInvitation', {
      token: w.userA1.token,
      params: { invitationId: invitation.id },
      body: lockBody(invitation.attributes.lockVersion),
    });
    expect(resent.status).toBe(200);
    expect(resent.body.data.attributes.sentCount).toBe(2);
    const mails = await mailsTo(app, email, 'invitation', 2);
    const [oldLink, newLink] = [linkOf(first!), linkOf(mails[1]!)];
    expect(newLink.token).not.toBe(oldLink.token);
    expect(newLink.accessCode).not.toBe(oldLink.accessCode);
    const dead = await app.api.call('getOneTimeInvitation', { query: { token: oldLink.token } });
    expect([dead.status, dead.body.errors[0].code]).toEqual([404, 'INVITATION_LINK_INVALID']);
    const deadCode = await app.api.call('getOneTimeInvitation', { query: { accessCode: oldLink.accessCode } });
    expect(deadCode.status).toBe(404);
    const live = await app.api.call('getOneTimeInvitation', { query: { accessCode: newLink.accessCode } });
    expect(live.status).toBe(200);
    expect(live.body.data.attributes).toMatchObject({
      organizationName: '株式会社A',
      businessFlowName: '売買契約 2026',
    });
    expect((await lastLog(app, 'one_time_invitation.resent', invitation.id)).actor_user_id).toBe(w.userA1.id);
  });

  it('cancels (link answers 410), refuses a second cancel and a re-send, and re-invites with a new mail', async () => {
    const email = guestEmail();
    const invitation = await inviteByEmail(app, w.ownerA.token, w.flowId, email);
    const [mail] = await mailsTo(app, email, 'invitation');
    const cancelled = await app.api.call('cancelOneTimeInvitation', {
      token: w.ownerA.token,
      params: { invitationId: invitation.id },
      body: lockBody(invitation.attributes.lockVersion),
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.attributes.status).toBe('cancelled');
    const lockVersion = cancelled.body.data.attributes.lockVersion;
    const gone = await app.api.call('getOneTimeInvitation', { query: { token: linkOf(mail!).token } });
    expect([gone.status, gone.body.errors[0].code]).toEqual([410, 'INVITATION_CANCELLED']);
    for (const operationId of ['cancelOneTimeInvitation', 'resendOneTimeInvitation'] as const) {
      const refused = await app.api.call(operationId, {
        token: w.ownerA.token,
        params: { invitationId: invitation.id },
        body: lockBody(lockVersion),
      });
      expect([refused.status, refused.body.errors[0].code], operationId).toEqual([
        409,
        'ONE_TIME_INVITATION_STATUS_INVALID',
      ]);
    }
    const reinvited = await app.api.call('reinviteOneTimeUser', {
      token: w.ownerA.token,
      params: { invitationId: invitation.id },
      body: lockBody(lockVersion),
    });
    expect(reinvited.status).toBe(200);
    expect(reinvited.body.data.attributes).toMatchObject({ status: 'invited', cancelledAt: null });
    const mails = await mailsTo(app, email, 'invitation', 2);
    expect((await app.api.call('getOneTimeInvitation', { query: { token: linkOf(mail!).token } })).status).toBe(404);
    expect((await app.api.call('getOneTimeInvitation', { query: { token: linkOf(mails[1]!).token } })).status).toBe(
      200,
    );
    const again = await app.api.call('reinviteOneTimeUser', {
      token: w.ownerA.token,
      params: { invitationId: invitation.id },
      body: lockBody(reinvited.body.data.attributes.lockVersion),
    });
    expect(again.status).toBe(409);
    for (const action of ['one_time_invitation.cancelled', 'one_time_invitation.reinvited']) {
      const log = await lastLog(app, action, invitation.id);
      expect(log.details, action).toMatchObject({ email });
    }
  });
});

describe('QR invitations', () => {
  it('creates a one-time user without address and sends nothing; only a QR code can be opened for it', async () => {
    const response = await app.api.call('inviteOneTimeUser', {
      token: w.ownerA.token,
      params: { businessFlowId: w.flowId },
      body: inviteBody({ channel: 'qr' }),
    });
    expect(response.status).toBe(201);
    expect(response.body.data.attributes).toMatchObject({ channel: 'qr', email: null, name: null, sentCount: 0 });
    const resend = await app.api.call('resendOneTimeInvitation', {
      token: w.ownerA.token,
      params: { invitationId: response.body.data.id },
      body: lockBody(response.body.data.attributes.lockVersion),
    });
    expect([resend.status, resend.body.errors[0].code]).toEqual([409, 'ONE_TIME_INVITATION_STATUS_INVALID']);
    const qr = await app.api.call('openOneTimeQrCode', {
      token: w.ownerA.token,
      params: { invitationId: response.body.data.id },
    });
    expect(qr.status).toBe(201);
    expect(qr.body.data.attributes.url).toMatch(/\/onetime\/qr\/[^/]+$/);
    expect(qr.body.data.attributes.svg).toMatch(/^<svg/);
    const expiresIn = new Date(qr.body.data.attributes.expiresAt).getTime() - app.clock.now().getTime();
    expect(expiresIn).toBeGreaterThan(9 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);
    expect(await lastLog(app, 'one_time_invitation.qr_opened', response.body.data.id)).toBeTruthy();
    // An e-mail invitation has no QR code.
    const byMail = await inviteByEmail(app, w.ownerA.token, w.flowId);
    const refused = await app.api.call('openOneTimeQrCode', {
      token: w.ownerA.token,
      params: { invitationId: byMail.id },
    });
    expect(refused.status).toBe(409);
  });
});
