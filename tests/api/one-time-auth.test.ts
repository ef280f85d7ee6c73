import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { lastLog } from '../helpers/org-admin.ts';
import {
  credentialBody,
  guestEmail,
  inviteBody,
  inviteByEmail,
  linkOf,
  lockBody,
  mailsTo,
  requestCode,
  signedInGuest,
  signInGuestCall,
} from '../helpers/one-time.ts';
import { seedTaskWorld, type TaskWorld } from '../helpers/tasks.ts';

// A guest's authentication: link (or 16-character access code) → mailed 6-digit code → guest session; the lock after
// wrong codes, the lifetimes of links, codes and QR codes, what re-sending and cancelling end, and terms consent.

let app: TestApp;
let w: TaskWorld;
/** The inviting member's token; renewed after the clock jumps (member sessions end too). */
let member: string;
beforeAll(async () => {
  app = await startApp();
  w = await seedTaskWorld(app);
  member = w.ownerA.token;
});
afterAll(() => app?.close());

async function advance(ms: number) {
  app.clock.advance(ms);
  member = (await signIn(app, w.ownerA.loginId)).authorizationToken;
}

const usage = async () => {
  const row = await app.service.deps
    .knex('usage_counters')
    .where({ organization_id: w.ownerA.organizationId, metric: 'oneTimeUsers' })
    .sum<{ n: string }[]>({ n: 'count' });
  return Number(row[0]!.n ?? 0);
};

async function invited(email = guestEmail()) {
  const invitation = await inviteByEmail(app, member, w.flowId, email);
  const [mail] = await mailsTo(app, email, 'invitation');
  return { email, invitation, link: linkOf(mail!) };
}

const me = (token: string) => app.api.call('getOneTimeMe', { token });

describe('signing in with the link', () => {
  it('link → code → tokens; registers the one-time user once (usage, logs)', async () => {
    const { email, invitation, link } = await invited();
    const lookup = await app.api.call('getOneTimeInvitation', { query: { token: link.token } });
    expect(lookup.status).toBe(200);
    expect(lookup.body.data.attributes).toMatchObject({ name: '鈴木 一郎', status: 'invited' });
    expect(lookup.body.data.attributes.maskedEmail).toMatch(/^g\*\*\*@example\.com$/);
    const usageBefore = await usage();

    const sent = await app.api.call('sendOneTimeAuthCode', {
      body: credentialBody('OneTimeAuthCode', { token: link.token }),
    });
    expect(sent.status).toBe(202);
    const expiresIn = new Date(sent.body.data.attributes.expiresAt).getTime() - app.clock.now().getTime();
    expect(expiresIn).toBeGreaterThan(9 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);
    const [codeMail] = await mailsTo(app, email, 'code');
    const code = /\b(\d{6})\b/.exec(codeMail!.text ?? '')![1]!;

    const signedIn = await signInGuestCall(app, { token: link.token }, code);
    expect(signedIn.status).toBe(201);
    expect(signedIn.body.data.attributes.businessFlowId).toBe(w.flowId);
    const who = await me(signedIn.body.data.attributes.authorizationToken);
    expect(who.status).toBe(200);
    expect(who.body.data.attributes).toMatchObject({ email, businessFlowId: w.flowId, termsAccepted: false });
    expect(who.body.data.attributes.organizationName).toBe('株式会社A');

    const { knex } = app.service.deps;
    expect(await knex('one_time_users').where({ id: invitation.attributes.oneTimeUserId }).first()).toMatchObject({
      status: 'registered',
    });
    expect((await knex('one_time_invitations').where({ id: invitation.id }).first()).status).toBe('registered');
    expect(await usage()).toBe(usageBefore + 1);
    const log = await lastLog(app, 'one_time_user.registered', invitation.id);
    expect(log.details).toMatchObject({ oneTimeUserId: invitation.attributes.oneTimeUserId, email });

    // The code is used up; a second sign-in with a new code counts nothing more.
    expect((await signInGuestCall(app, { token: link.token }, code)).status).toBe(422);
    const again = await signInGuestCall(
      app,
      { token: link.token },
      await requestCode(app, email, { token: link.token }),
    );
    expect(again.status).toBe(201);
    expect(await usage()).toBe(usageBefore + 1);
  });

  it('works with the 16-character code typed in any case, with spaces, instead of the link', async () => {
    const { email, link } = await invited();
    const typed = ` ${link.accessCode.toLowerCase().replace(/-/g, ' ')} `;
    const lookup = await app.api.call('getOneTimeInvitation', { query: { accessCode: typed } });
    expect(lookup.status).toBe(200);
    const code = await requestCode(app, email, { accessCode: typed });
    const signedIn = await signInGuestCall(app, { accessCode: link.accessCode.replace(/-/g, '') }, code);
    expect(signedIn.status).toBe(201);
    const unknown = await app.api.call('getOneTimeInvitation', { query: { accessCode: 'ABCD-EFGH-JKMN-PQRS' } });
    expect([unknown.status, unknown.body.errors[0].code]).toEqual([404, 'INVITATION_LINK_INVALID']);
    const neither = await app.api.call('getOneTimeInvitation', {});
    expect(neither.status).toBe(422);
  });

  it('locks after 5 wrong codes (429 with minutes), and then refuses even the right code', async () => {
    const { email, link } = await invited();
    const code = await requestCode(app, email, { token: link.token });
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) {
      const refused = await signInGuestCall(app, { token: link.token }, wrong);
      expect([refused.status, refused.body.errors[0].code]).toEqual([422, 'ONE_TIME_CODE_INVALID']);
    }
    const fifth = await signInGuestCall(app, { token: link.token }, wrong);
    expect([fifth.status, fifth.body.errors[0].code]).toEqual([429, 'ONE_TIME_CODE_LOCKED']);
    expect(fifth.body.errors[0].title).toContain('15');
    const right = await signInGuestCall(app, { token: link.token }, code);
    expect([right.status, right.body.errors[0].code]).toEqual([429, 'ONE_TIME_CODE_LOCKED']);
    const mail = await app.api.call('sendOneTimeAuthCode', {
      body: credentialBody('OneTimeAuthCode', { token: link.token }),
    });
    expect(mail.status).toBe(429);
  });

  it('counts at most 5 of 10 parallel wrong codes', async () => {
    const { email, invitation, link } = await invited();
    const code = await requestCode(app, email, { token: link.token });
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => signInGuestCall(app, { token: link.token }, wrong)),
    );
    const codes = answers.map((a) => a.body.errors[0].code);
    expect(codes.filter((c) => c === 'ONE_TIME_CODE_INVALID')).toHaveLength(4);
    expect(codes.filter((c) => c === 'ONE_TIME_CODE_LOCKED')).toHaveLength(6);
    const locks = await app.service.deps
      .knex('operation_logs')
      .where({ action: 'one_time_user.locked', target_id: invitation.attributes.oneTimeUserId });
    expect(locks).toHaveLength(1);
    expect((await signInGuestCall(app, { token: link.token }, code)).status).toBe(429);
  });

  it('mails at most 5 codes per invitation an hour', async () => {
    const { link } = await invited();
    const ask = () =>
      app.api.call('sendOneTimeAuthCode', { body: credentialBody('OneTimeAuthCode', { token: link.token }) });
    for (let i = 0; i < 5; i++) expect((await ask()).status).toBe(202);
    const sixth = await ask();
    expect([sixth.status, sixth.body.errors[0].code]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('sessions', () => {
  it('a re-sent invitation kills the old link, the old code and the guest session', async () => {
    const guest = await signedInGuest(app, member, w.flowId);
    const resent = await app.api.call('resendOneTimeInvitation', {
      token: member,
      params: { invitationId: guest.invitation.id },
      body: lockBody(
        (await app.service.deps.knex('one_time_invitations').where({ id: guest.invitation.id }).first()).lock_version,
      ),
    });
    expect(resent.status).toBe(200);
    expect((await me(guest.authorizationToken)).status).toBe(401);
    const old = await app.api.call('sendOneTimeAuthCode', {
      body: credentialBody('OneTimeAuthCode', { token: guest.link.token }),
    });
    expect([old.status, old.body.errors[0].code]).toEqual([404, 'INVITATION_LINK_INVALID']);
    const oldCode = await app.api.call('getOneTimeInvitation', { query: { accessCode: guest.link.accessCode } });
    expect(oldCode.status).toBe(404);
    const refresh = await app.api.call('refreshOneTimeAuth', {
      body: credentialBody('OneTimeAuth', { refreshToken: guest.refreshToken }),
    });
    expect(refresh.status).toBe(401);
  });

  it('a cancelled invitation ends the session on the next request and its link answers 410', async () => {
    const guest = await signedInGuest(app, member, w.flowId);
    expect((await me(guest.authorizationToken)).status).toBe(200);
    const row = await app.service.deps.knex('one_time_invitations').where({ id: guest.invitation.id }).first();
    const cancelled = await app.api.call('cancelOneTimeInvitation', {
      token: member,
      params: { invitationId: guest.invitation.id },
      body: lockBody(row.lock_version),
    });
    expect(cancelled.status).toBe(200);
    const after = await me(guest.authorizationToken);
    expect([after.status, after.body.errors[0].code]).toEqual([401, 'SESSION_REVOKED']);
    const code = await app.api.call('sendOneTimeAuthCode', {
      body: credentialBody('OneTimeAuthCode', { token: guest.link.token }),
    });
    expect([code.status, code.body.errors[0].code]).toEqual([410, 'INVITATION_CANCELLED']);
  });

  it('refresh rotates the pair; presenting a replaced refresh token ends the session', async () => {
    const guest = await signedInGuest(app, member, w.flowId);
    const refresh = (refreshToken: string) =>
      app.api.call('refreshOneTimeAuth', { body: credentialBody('OneTimeAuth', { refreshToken }) });
    const next = await refresh(guest.refreshToken);
    expect(next.status).toBe(200);
    expect(next.body.data.attributes.businessFlowId).toBe(w.flowId);
    expect(next.body.data.attributes.refreshToken).not.toBe(guest.refreshToken);
    expect((await me(next.body.data.attributes.authorizationToken)).status).toBe(200);
    const reused = await refresh(guest.refreshToken);
    expect([reused.status, reused.body.errors[0].code]).toEqual([401, 'REFRESH_TOKEN_REUSED']);
    expect((await me(next.body.data.attributes.authorizationToken)).status).toBe(401);
    expect((await refresh(next.body.data.attributes.refreshToken)).status).toBe(401);
  });

  it('keeps guest and member tokens apart (401 both ways), and signs out', async () => {
    const guest = await signedInGuest(app, member, w.flowId);
    const withMember = await me(member);
    expect(withMember.status).toBe(401);
    const accept = await app.api.call('acceptOneTimeTerms', {
      token: member,
      body: credentialBody('OneTimeTermsConsent', { termId: '00000000-0000-4000-8000-000000000000' }),
    });
    expect(accept.status).toBe(401);
    expect((await app.api.call('signOutOneTime', { token: member })).status).toBe(401);
    expect((await app.api.call('getCurrentUser', { token: guest.authorizationToken })).status).toBe(401);
    expect((await app.api.call('signOutOneTime', { token: guest.authorizationToken })).status).toBe(204);
    expect((await me(guest.authorizationToken)).status).toBe(401);
  });

  it('records the terms consent with IP and user agent', async () => {
    const guest = await signedInGuest(app, member, w.flowId);
    const before = await me(guest.authorizationToken);
    const termId = before.body.data.attributes.currentTerm.id;
    const wrong = await app.api.call('acceptOneTimeTerms', {
      token: guest.authorizationToken,
      body: credentialBody('OneTimeTermsConsent', { termId: '00000000-0000-4000-8000-000000000000' }),
    });
    expect([wrong.status, wrong.body.errors[0].code]).toEqual([422, 'TERMS_NOT_AGREED']);
    const accepted = await app.api.call('acceptOneTimeTerms', {
      token: guest.authorizationToken,
      body: credentialBody('OneTimeTermsConsent', { termId }),
      headers: { 'user-agent': 'guest-phone/1.0', 'x-forwarded-for': '203.0.113.7' },
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.attributes.termsAccepted).toBe(true);
    const consent = await app.service.deps
      .knex('guest_term_consents')
      .where({ invitation_id: guest.invitation.id, term_id: termId })
      .first();
    expect(consent).toMatchObject({ ip: '203.0.113.7', user_agent: 'guest-phone/1.0' });
    const log = await lastLog(app, 'one_time_user.terms_accepted', guest.invitation.id);
    expect(log.details).toMatchObject({ email: guest.email, termId });
    expect((await me(guest.authorizationToken)).body.data.attributes.termsAccepted).toBe(true);
  });
});

describe('QR codes', () => {
  async function qrInvitation() {
    const created = await app.api.call('inviteOneTimeUser', {
      token: member,
      params: { businessFlowId: w.flowId },
      body: inviteBody({ channel: 'qr' }),
    });
    expect(created.status).toBe(201);
    return created.body.data.id as string;
  }
  const openQr = async (invitationId: string) => {
    const qr = await app.api.call('openOneTimeQrCode', { token: member, params: { invitationId } });
    expect(qr.status).toBe(201);
    return decodeURIComponent(/\/onetime\/qr\/([^/]+)$/.exec(qr.body.data.attributes.url)![1]!);
  };
  const claim = (qrToken: string, email: string) =>
    app.api.call('claimOneTimeQrInvitation', {
      params: { qrToken },
      body: credentialBody('OneTimeQrClaim', { name: '田中 花子', email }),
    });

  it('open → claim → code → sign in; the QR code is used up', async () => {
    const invitationId = await qrInvitation();
    const qrToken = await openQr(invitationId);
    const shown = await app.api.call('getOneTimeQrInvitation', { params: { qrToken } });
    expect(shown.status).toBe(200);
    expect(shown.body.data.attributes).toMatchObject({
      organizationName: '株式会社A',
      businessFlowName: '売買契約 2026',
    });
    const email = guestEmail('qr');
    const claimed = await claim(qrToken, email);
    expect(claimed.status).toBe(201);
    expect(claimed.body.data.attributes.maskedEmail).toBe('q***@example.com');
    const [codeMail] = await mailsTo(app, email, 'code');
    const code = /\b(\d{6})\b/.exec(codeMail!.text ?? '')![1]!;
    const signedIn = await signInGuestCall(app, { token: claimed.body.data.attributes.token }, code);
    expect(signedIn.status).toBe(201);
    expect((await me(signedIn.body.data.attributes.authorizationToken)).body.data.attributes).toMatchObject({
      name: '田中 花子',
      email,
    });
    expect((await app.api.call('getOneTimeQrInvitation', { params: { qrToken } })).status).toBe(404);
    expect((await claim(qrToken, guestEmail('qr'))).status).toBe(404);
    expect(await lastLog(app, 'one_time_invitation.qr_claimed', invitationId)).toBeTruthy();
    // The member cannot open it again once claimed.
    const reopen = await app.api.call('openOneTimeQrCode', { token: member, params: { invitationId } });
    expect(reopen.status).toBe(409);
  });

  it('refuses an address another one-time user of the workspace has (409), and leaves the QR code usable', async () => {
    const taken = guestEmail();
    await inviteByEmail(app, member, w.flowId, taken);
    const qrToken = await openQr(await qrInvitation());
    const refused = await claim(qrToken, taken.toUpperCase());
    expect([refused.status, refused.body.errors[0].code]).toEqual([409, 'ONE_TIME_USER_EMAIL_TAKEN']);
    expect((await app.api.call('getOneTimeQrInvitation', { params: { qrToken } })).status).toBe(200);
  });

  it('reopening makes a new QR code and kills the old one', async () => {
    const invitationId = await qrInvitation();
    const first = await openQr(invitationId);
    const second = await openQr(invitationId);
    expect((await app.api.call('getOneTimeQrInvitation', { params: { qrToken: first } })).status).toBe(404);
    expect((await app.api.call('getOneTimeQrInvitation', { params: { qrToken: second } })).status).toBe(200);
  });
});

describe('lifetimes (the clock moves forward)', () => {
  it('a code dies after 10 minutes', async () => {
    const { email, link } = await invited();
    const code = await requestCode(app, email, { token: link.token });
    await advance(10 * 60_000 + 1000);
    const late = await signInGuestCall(app, { token: link.token }, code);
    expect([late.status, late.body.errors[0].code]).toEqual([422, 'ONE_TIME_CODE_EXPIRED']);
  });

  it('a QR code dies after 10 minutes (410)', async () => {
    const created = await app.api.call('inviteOneTimeUser', {
      token: member,
      params: { businessFlowId: w.flowId },
      body: inviteBody({ channel: 'qr' }),
    });
    const qr = await app.api.call('openOneTimeQrCode', {
      token: member,
      params: { invitationId: created.body.data.id },
    });
    const qrToken = decodeURIComponent(/\/onetime\/qr\/([^/]+)$/.exec(qr.body.data.attributes.url)![1]!);
    await advance(10 * 60_000 + 1000);
    const shown = await app.api.call('getOneTimeQrInvitation', { params: { qrToken } });
    expect([shown.status, shown.body.errors[0].code]).toEqual([410, 'QR_CODE_EXPIRED']);
    const claimed = await app.api.call('claimOneTimeQrInvitation', {
      params: { qrToken },
      body: credentialBody('OneTimeQrClaim', { name: '遅刻', email: guestEmail() }),
    });
    expect(claimed.status).toBe(410);
  });

  it('the lock lifts after 15 minutes', async () => {
    const { email, link } = await invited();
    await requestCode(app, email, { token: link.token });
    for (let i = 0; i < 5; i++) await signInGuestCall(app, { token: link.token }, 'x');
    expect((await signInGuestCall(app, { token: link.token }, 'x')).status).toBe(429);
    await advance(15 * 60_000 + 1000);
    const code = await requestCode(app, email, { token: link.token });
    expect((await signInGuestCall(app, { token: link.token }, code)).status).toBe(201);
  });

  it('a link and its access code die after 14 days (410)', async () => {
    const { link } = await invited();
    await advance(14 * 24 * 3600_000 + 60_000);
    const byLink = await app.api.call('getOneTimeInvitation', { query: { token: link.token } });
    expect([byLink.status, byLink.body.errors[0].code]).toEqual([410, 'INVITATION_LINK_EXPIRED']);
    const byCode = await app.api.call('sendOneTimeAuthCode', {
      body: credentialBody('OneTimeAuthCode', { accessCode: link.accessCode }),
    });
    expect([byCode.status, byCode.body.errors[0].code]).toEqual([410, 'INVITATION_LINK_EXPIRED']);
  });
});
