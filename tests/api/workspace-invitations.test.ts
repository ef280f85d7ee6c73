/*
 * Partner organizations invited to a workspace by link: the owner invites an address, the mail carries the join
 * link, the invitee looks it up without signing in, signs up (without a corporate number) and accepts. Dead links
 * (re-sent, cancelled, expired, used) each answer their own code; other organizations cannot see or change the
 * invitations; nobody joins twice and the owner cannot accept its own invitation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInOwner, userIn } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { recipientOf, waitForMail } from '../helpers/mail.ts';
import { type AdminSession, adminSession, lastLog } from '../helpers/org-admin.ts';
import { corporateNumber, createWorkspace } from '../helpers/workspaces.ts';

let app: TestApp;
let owner: AdminSession;
let other: AdminSession;
let workspaceId: string;
let serial = 0;

beforeAll(async () => {
  app = await startApp();
  owner = await adminSession(app, { organizationName: '株式会社招待元', corporateNumber: corporateNumber() });
  other = await adminSession(app, { organizationName: '株式会社よそ', corporateNumber: corporateNumber() });
  workspaceId = (await createWorkspace(app, owner.token, [{ kind: 'group', groupId: owner.defaultGroupId }])).id;
});
afterAll(() => app.close());

const errorOf = (response: { status: number; body: any }) => [response.status, response.body?.errors?.[0]?.code];
const address = () => `partner-${process.pid}-${++serial}@example.com`;

const invite = (token: string, attributes: Record<string, unknown>, ws = workspaceId) =>
  app.api.call('invitePartnerOrganization', {
    token,
    params: { workspaceId: ws },
    body: { data: { type: 'WorkspaceInvitation', attributes } },
  });
const change = (op: 'cancelWorkspaceInvitation' | 'resendWorkspaceInvitation', token: string, id: string, v: number) =>
  app.api.call(op, {
    token,
    params: { invitationId: id },
    body: { data: { type: 'WorkspaceInvitation', attributes: { lockVersion: v } } },
  });
const lookup = (token: string) => app.api.call('getWorkspaceInvitation', { query: { token } });
const accept = (bearer: string, token: string) =>
  app.api.call('acceptWorkspaceInvitation', {
    token: bearer,
    body: { data: { type: 'WorkspaceInvitationAcceptance', attributes: { token } } },
  });
const list = (token: string, ws = workspaceId) =>
  app.api.call('listWorkspaceInvitations', { token, params: { workspaceId: ws } });

/** The token of the latest join link mailed to an address (skipping links already seen). */
async function linkTokenFor(email: string, seen: string[] = []) {
  const pattern = /\/workspaces\/([0-9a-f-]+)\/join\?invitation=([A-Za-z0-9_-]+)/;
  const mail = await waitForMail(app, (m) => {
    const hit = pattern.exec(m.text ?? '');
    return recipientOf(m).includes(email) && Boolean(hit && !seen.includes(hit[2]!));
  });
  return { token: pattern.exec(mail.text ?? '')![2]!, mail };
}

/** Invites a fresh address (201 expected) and returns the invitation and the link's token. */
async function invited(attributes: Record<string, unknown> = {}) {
  const email = address();
  const response = await invite(owner.token, { email, ...attributes });
  expect(response.status).toBe(201);
  const { token } = await linkTokenFor(email);
  return { id: response.body.data.id as string, email, token, invitation: response.body.data };
}

describe('inviting a partner organization by link', () => {
  it('mails the join link, lists the invitation pending, and shows who invites whom without sign-in', async () => {
    const email = address();
    const response = await invite(owner.token, { email, isPublic: false, isEditable: true, locale: 'en' });
    expect(response.status).toBe(201);
    expect(response.body.data.attributes).toMatchObject({
      email,
      locale: 'en',
      isPublic: false,
      isEditable: true,
      status: 'pending',
      sentCount: 1,
      invitedBy: { id: owner.ownerId },
      acceptedOrganization: null,
      lockVersion: 0,
    });
    const expires = new Date(response.body.data.attributes.expiresAt).getTime();
    expect(Math.round((expires - Date.now()) / 86_400_000)).toBe(7);
    const { token, mail } = await linkTokenFor(email);
    expect(mail.subject).toContain('株式会社招待元');
    expect(mail.text).toContain(`/workspaces/${workspaceId}/join?invitation=`);
    // The link is a secret parameter: once sent, the stored message no longer holds it.
    const stored = await app.service.deps
      .knex('outgoing_messages')
      .where({ kind: 'workspace-invitation', to_address: email })
      .first();
    expect(JSON.stringify(stored.params)).not.toContain(token);
    const row = await app.service.deps.knex('workspace_invitations').where({ id: response.body.data.id }).first();
    expect(row.token_hash).not.toBe(token);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const summary = await lookup(token);
    expect(summary.status).toBe(200);
    expect(summary.body.data.attributes).toMatchObject({
      workspace: { id: workspaceId, name: '取引ワークスペース' },
      organization: { id: owner.organizationId, name: '株式会社招待元' },
      inviterName: '山田 太郎',
      email,
      isPublic: false,
      isEditable: true,
    });
    const listed = await list(owner.token);
    expect(listed.status).toBe(200);
    expect(listed.body.data.find((i: any) => i.id === response.body.data.id).attributes.status).toBe('pending');
    expect(await lastLog(app, 'workspace.partner_invited', workspaceId)).toMatchObject({
      organization_id: owner.organizationId,
    });
  });

  it('lets a new organization without a corporate number sign up and join with the chosen flags, once', async () => {
    const { id, email, token } = await invited({ isPublic: false, isEditable: true });
    const partner = await signedInOwner(app, { organizationName: '山田商店', email });
    const organization = await app.service.deps.knex('organizations').where({ id: partner.organizationId }).first();
    expect(organization.corporate_number).toBeNull();

    const joined = await accept(partner.token, token);
    expect(joined.status).toBe(200);
    expect(joined.body.data.attributes).toMatchObject({
      isOwnerOrganization: false,
      canEdit: true,
      canSeeAllFlows: false,
    });
    const participants = (await app.api.call('getWorkspace', { token: owner.token, params: { workspaceId } })).body.data
      .attributes.participants;
    expect(participants).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          attributes: expect.objectContaining({
            kind: 'organization',
            organizationId: partner.organizationId,
            organizationName: '山田商店',
            isPublic: false,
            isEditable: true,
          }),
        }),
      ]),
    );
    const listed = (await list(owner.token)).body.data.find((i: any) => i.id === id).attributes;
    expect(listed).toMatchObject({
      status: 'accepted',
      acceptedOrganization: { id: partner.organizationId, name: '山田商店' },
    });
    // The partner now reaches the workspace through its list.
    const partnerList = await app.api.call('listWorkspaces', {
      token: partner.token,
      query: { 'filter[relation]': 'partner' },
    });
    expect(partnerList.body.data.map((w: any) => w.id)).toContain(workspaceId);
    // The used link: its own answer, for the look-up and for a second acceptance.
    expect(errorOf(await lookup(token))).toEqual([410, 'WORKSPACE_INVITATION_USED']);
    expect(errorOf(await accept(partner.token, token))).toEqual([410, 'WORKSPACE_INVITATION_USED']);
    for (const organizationId of [owner.organizationId, partner.organizationId]) {
      const log = await app.service.deps
        .knex('operation_logs')
        .where({ action: 'workspace.invitation_accepted', organization_id: organizationId, target_id: workspaceId })
        .first();
      expect(log).toBeTruthy();
    }
  });

  it('refuses a second pending invitation of the same address (in any letter case)', async () => {
    const { email } = await invited();
    expect(errorOf(await invite(owner.token, { email: email.toUpperCase() }))).toEqual([
      409,
      'WORKSPACE_INVITATION_DUPLICATE',
    ]);
  });

  it('rejects an invalid address with 422 at the field', async () => {
    const response = await invite(owner.token, { email: 'not-an-address' });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].source.pointer).toBe('/data/attributes/email');
  });
});

describe('dead links', () => {
  it('makes the earlier link dead on re-send, and the new one works', async () => {
    const { id, email, token } = await invited();
    const resent = await change('resendWorkspaceInvitation', owner.token, id, 0);
    expect(resent.status).toBe(200);
    expect(resent.body.data.attributes).toMatchObject({ status: 'pending', sentCount: 2, lockVersion: 1 });
    const { token: second } = await linkTokenFor(email, [token]);
    expect(errorOf(await lookup(token))).toEqual([404, 'WORKSPACE_INVITATION_INVALID']);
    expect((await lookup(second)).status).toBe(200);
    expect(errorOf(await change('resendWorkspaceInvitation', owner.token, id, 0))).toEqual([
      409,
      'UPDATED_BY_ANOTHER_USER',
    ]);
  });

  it('makes the link dead on cancel; a cancelled invitation cannot be cancelled or re-sent again', async () => {
    const { id, token } = await invited();
    const cancelled = await change('cancelWorkspaceInvitation', owner.token, id, 0);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.attributes).toMatchObject({ status: 'cancelled' });
    expect(errorOf(await lookup(token))).toEqual([404, 'WORKSPACE_INVITATION_INVALID']);
    expect(errorOf(await accept(other.token, token))).toEqual([404, 'WORKSPACE_INVITATION_INVALID']);
    expect(errorOf(await change('resendWorkspaceInvitation', owner.token, id, 1))).toEqual([
      409,
      'WORKSPACE_INVITATION_NOT_PENDING',
    ]);
    expect(errorOf(await change('cancelWorkspaceInvitation', owner.token, id, 1))).toEqual([
      409,
      'WORKSPACE_INVITATION_NOT_PENDING',
    ]);
  });

  it('answers an expired link with its own code, lists it expired, and a re-send revives it', async () => {
    const { id, email, token } = await invited();
    await app.service.deps
      .knex('workspace_invitations')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(errorOf(await lookup(token))).toEqual([410, 'WORKSPACE_INVITATION_EXPIRED']);
    expect(errorOf(await accept(other.token, token))).toEqual([410, 'WORKSPACE_INVITATION_EXPIRED']);
    expect((await list(owner.token)).body.data.find((i: any) => i.id === id).attributes.status).toBe('expired');
    expect((await change('resendWorkspaceInvitation', owner.token, id, 0)).status).toBe(200);
    const { token: fresh } = await linkTokenFor(email, [token]);
    expect((await lookup(fresh)).status).toBe(200);
  });

  it('answers an unknown token as invalid', async () => {
    expect(errorOf(await lookup('no-such-token'))).toEqual([404, 'WORKSPACE_INVITATION_INVALID']);
    expect(errorOf(await accept(other.token, 'no-such-token'))).toEqual([404, 'WORKSPACE_INVITATION_INVALID']);
  });
});

describe('who may do what', () => {
  it('hides the invitations from other organizations: list, cancel and re-send are 404, invite too', async () => {
    const { id } = await invited();
    expect(errorOf(await list(other.token))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await change('cancelWorkspaceInvitation', other.token, id, 0))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await change('resendWorkspaceInvitation', other.token, id, 0))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await invite(other.token, { email: address() }))).toEqual([404, 'NOT_FOUND']);
    const row = await app.service.deps.knex('workspace_invitations').where({ id }).first();
    expect(row).toMatchObject({ status: 'pending', sent_count: 1, lock_version: 0 });
  });

  it('lets a partner of the workspace see it but not manage its invitations (403)', async () => {
    const { token } = await invited();
    const partner = await signedInOwner(app, { organizationName: '株式会社参加済み' });
    expect((await accept(partner.token, token)).status).toBe(200);
    expect(errorOf(await list(partner.token))).toEqual([403, 'WORKSPACE_EDIT_NOT_ALLOWED']);
    expect(errorOf(await invite(partner.token, { email: address() }))).toEqual([403, 'WORKSPACE_EDIT_NOT_ALLOWED']);
  });

  it('refuses the owner organization accepting its own invitation', async () => {
    const { token } = await invited();
    expect(errorOf(await accept(owner.token, token))).toEqual([422, 'PARTNER_IS_OWN_ORGANIZATION']);
    expect((await lookup(token)).status).toBe(200);
  });

  it('never joins an organization twice: a second invitation of a partner is refused and stays pending', async () => {
    const partner = await signedInOwner(app, { organizationName: '株式会社二重' });
    const first = await invited();
    const second = await invited();
    expect((await accept(partner.token, first.token)).status).toBe(200);
    expect(errorOf(await accept(partner.token, second.token))).toEqual([409, 'WORKSPACE_PARTICIPANT_DUPLICATE']);
    expect((await lookup(second.token)).status).toBe(200);
    const rows = await app.service.deps
      .knex('workspace_participants')
      .where({ workspace_id: workspaceId, partner_organization_id: partner.organizationId });
    expect(rows).toHaveLength(1);
  });

  it('lets two acceptances by one organization race: exactly one joins', async () => {
    const partner = await signedInOwner(app, { organizationName: '株式会社競争' });
    const first = await invited();
    const second = await invited();
    const answers = await Promise.all([accept(partner.token, first.token), accept(partner.token, second.token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const rows = await app.service.deps
      .knex('workspace_participants')
      .where({ workspace_id: workspaceId, partner_organization_id: partner.organizationId });
    expect(rows).toHaveLength(1);
  });

  it('lets an ordinary user accept only for the invited address', async () => {
    const partner = await adminSession(app, { organizationName: '株式会社一般' });
    const member = await userIn(app, partner.organizationId, [partner.defaultGroupId]);
    const forSomeoneElse = await invited();
    expect(errorOf(await accept(member.token, forSomeoneElse.token))).toEqual([
      403,
      'WORKSPACE_INVITATION_ACCEPT_FORBIDDEN',
    ]);
    expect((await lookup(forSomeoneElse.token)).status).toBe(200);
    const email = address();
    await app.service.deps.knex('users').where({ id: member.id }).update({ email });
    expect((await invite(owner.token, { email })).status).toBe(201);
    const { token } = await linkTokenFor(email);
    expect((await accept(member.token, token)).status).toBe(200);
  });

  it('needs a sign-in to accept', async () => {
    const { token } = await invited();
    const response = await app.api.call('acceptWorkspaceInvitation', {
      body: { data: { type: 'WorkspaceInvitationAcceptance', attributes: { token } } },
    });
    expect(response.status).toBe(401);
  });
});

describe('rate limits (production budgets)', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startApp({ env: { KEIYAKU_RATE_LIMIT_SCALE: '1' } });
  });
  afterAll(() => limited.close());

  it('limits failed join-link look-ups per caller IP (30 in 15 minutes), and invitation mails per user (20 an hour)', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.77' };
    for (let i = 0; i < 30; i++) {
      const miss = await limited.api.call('getWorkspaceInvitation', { query: { token: `guess-${i}` }, headers });
      expect(miss.status).toBe(404);
    }
    const refused = await limited.api.call('getWorkspaceInvitation', { query: { token: 'guess-31' }, headers });
    expect(errorOf(refused)).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(refused.headers.get('retry-after')).toBeTruthy();

    const admin = await adminSession(limited, { organizationName: '株式会社上限' });
    const ws = (await createWorkspace(limited, admin.token, [{ kind: 'group', groupId: admin.defaultGroupId }])).id;
    const send = (n: number) =>
      limited.api.call('invitePartnerOrganization', {
        token: admin.token,
        params: { workspaceId: ws },
        body: { data: { type: 'WorkspaceInvitation', attributes: { email: `limit-${process.pid}-${n}@example.com` } } },
      });
    for (let n = 0; n < 20; n++) expect((await send(n)).status).toBe(201);
    expect(errorOf(await send(20))).toEqual([429, 'TOO_MANY_REQUESTS']);
  });
});
