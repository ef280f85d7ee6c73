import { expect, it } from 'vitest';
import partnersEn from '../../web/src/features/partners/i18n/en.json' with { type: 'json' };
import partnersJa from '../../web/src/features/partners/i18n/ja.json' with { type: 'json' };
import workspacesJa from '../../web/src/features/workspaces/i18n/ja.json' with { type: 'json' };
import { firstGroupId } from '../helpers/accounts.ts';
import { createFlow } from '../helpers/business-flows.ts';
import {
  DESKTOP,
  exact,
  field,
  heading,
  landedOn,
  MOBILE,
  screenshot,
  signIn,
  signUpOrganization,
  TEXTS,
  toast,
  useApp,
  useBrowser,
} from '../helpers/browser.ts';
import { recipientOf, waitForMail } from '../helpers/mail.ts';
import { groupTask, newDocument, partnerTask, plan, step } from '../helpers/tasks.ts';
import { createWorkspace } from '../helpers/workspaces.ts';

// A partner organization WITHOUT a corporate number joins a workspace by link and runs its task: the owner invites
// an address on the workspace screen, the mail arrives, the invitee signs a new organization up through the link,
// joins, and approves its task on the outer business flow page. The used and expired links show their own pages.

const app = useApp();
const browser = useBrowser();
const auth = TEXTS.ja.auth;
const PARTNER_EMAIL = `partner-e2e-${process.pid}@example.com`;
const PASSWORD = 'partner-pass1';

/** The join link of the latest invitation mail to an address, as a path on the app. */
async function joinPathFor(email: string) {
  const mail = await waitForMail(app, (m) => recipientOf(m).includes(email) && /join\?invitation=/.test(m.text ?? ''));
  const url = /https?:\/\/\S+\/workspaces\/[0-9a-f-]+\/join\?invitation=[A-Za-z0-9_-]+/.exec(mail.text ?? '')![0];
  const parsed = new URL(url);
  return { path: `${parsed.pathname}${parsed.search}`, token: parsed.searchParams.get('invitation')!, mail };
}

it('a partner without a corporate number joins by link and approves its task on the outer business flow page', async () => {
  const { org, token, page } = await browser.openAsOwner({ app, overrides: { organizationName: '株式会社発注元' } });
  const groupId = await firstGroupId(app, org.organizationId);
  const workspace = await createWorkspace(app, token, [{ kind: 'group', groupId }], { name: '外注先との契約' });

  // The owner invites the partner's address on the workspace screen (defaults: sees all flows, no editing).
  await page.goto(`/organizations/workspaces/${workspace.id}`);
  await heading(page, '外注先との契約');
  await page.getByLabel(workspacesJa.invitations.email, exact).fill(PARTNER_EMAIL);
  await page.getByRole('button', { name: workspacesJa.invitations.send, exact: true }).click();
  await toast(page, workspacesJa.invitations.sent.replace('{{email}}', PARTNER_EMAIL)).waitFor();
  await page.getByRole('cell', { name: PARTNER_EMAIL, exact: true }).waitFor();
  await page.getByText(workspacesJa.invitations.statuses.pending, exact).first().waitFor();
  await page.getByRole('heading', { name: workspacesJa.invitations.title, exact: true }).scrollIntoViewIfNeeded();
  await screenshot(page, 'partner-invitations-panel-ja-1280');

  // The mail is in the outbox, with the owner's name and the join link.
  const { path, token: invitationToken, mail } = await joinPathFor(PARTNER_EMAIL);
  expect(mail.subject).toContain('株式会社発注元');
  expect(path).toBe(`/workspaces/${workspace.id}/join?invitation=${invitationToken}`);

  // The invitee opens the link without an account: who invites whom into which workspace.
  const partner = await browser.open({ app, viewport: MOBILE });
  await partner.goto(path);
  await heading(partner, partnersJa.join.title);
  await partner.getByText('外注先との契約', exact).waitFor();
  await partner.getByText(PARTNER_EMAIL, exact).first().waitFor();
  await screenshot(partner, 'partner-join-ja-360');
  await partner.setViewportSize(DESKTOP);
  await screenshot(partner, 'partner-join-ja-1280');
  await partner.setViewportSize(MOBILE);

  // Signs a new organization up, without a corporate number, through the link.
  await partner.getByRole('link', { name: partnersJa.join.signup, exact: true }).click();
  const signup = await landedOn(partner, '/signup');
  expect(signup.searchParams.get('invitationToken')).toBe(invitationToken);
  await heading(partner, auth.signup.title);
  const loginId = `partner${process.pid}`;
  await field(partner, auth.fields.organizationName).fill('山田デザイン事務所');
  await partner.getByLabel(auth.fields.noCorporateNumber, exact).check();
  await field(partner, auth.fields.loginId).fill(loginId);
  await field(partner, auth.fields.userName).fill('山田 花子');
  await field(partner, auth.fields.email).fill(PARTNER_EMAIL);
  await field(partner, auth.fields.password).fill(PASSWORD);
  await field(partner, auth.fields.passwordConfirmation).fill(PASSWORD);
  const consent = partner.getByLabel(auth.terms.agree, exact);
  await partner.locator(`[id="${await consent.getAttribute('id')}"]:enabled`).waitFor();
  await consent.check();
  await partner.getByRole('button', { name: auth.signup.submit, exact: true }).click();

  // Signs in (the invitation rides along) and comes back to the join page, now able to join.
  const login = await landedOn(partner, '/login');
  expect(login.searchParams.get('invitationToken')).toBe(invitationToken);
  await partner.getByText(auth.login.invitation, exact).waitFor();
  await field(partner, auth.fields.password).fill(PASSWORD);
  await partner.getByRole('button', { name: auth.login.submit, exact: true }).click();
  await landedOn(partner, `/workspaces/${workspace.id}/join`);
  const join = partnersJa.join.accept.replace('{{organization}}', '山田デザイン事務所');
  await partner.getByRole('button', { name: join, exact: true }).click();
  await toast(partner, partnersJa.join.joined.replace('{{name}}', '外注先との契約')).waitFor();
  await landedOn(partner, `/organizations/workspaces/${workspace.id}`);
  const partnerOrg = await app.service.deps.knex('organizations').where({ name: '山田デザイン事務所' }).first();
  expect(partnerOrg.corporate_number).toBeNull();
  const participant = await app.service.deps
    .knex('workspace_participants')
    .where({ workspace_id: workspace.id, partner_organization_id: partnerOrg.id })
    .first();
  // Not public: the partner sees only flows with a task of theirs.
  expect(participant).toMatchObject({ kind: 'organization', is_public: false, is_editable: false });

  // The owner plans a flow: the partner approves first, then the owner's group.
  const flow = await createFlow(app, token, workspace.id, { name: 'デザイン業務委託' });
  const documentId = await newDocument(app, token, flow.id, 'clean', '業務委託契約書');
  const tasks = await plan(app, token, documentId, [
    partnerTask(1, 'approve', partnerOrg.id),
    groupTask(2, 'approve', groupId),
  ]);

  // The partner runs its task on the outer business flow page: its tasks first.
  await partner.goto(`/outer-business-flows/${flow.id}`);
  await heading(partner, 'デザイン業務委託');
  await partner.getByRole('heading', { name: partnersJa.outer.myTasks, exact: true }).waitFor();
  await partner
    .getByText(
      partnersJa.outer.sharedBy
        .replace('{{organization}}', '株式会社発注元')
        .replace('{{workspace}}', '外注先との契約'),
      exact,
    )
    .waitFor();
  await screenshot(partner, 'outer-flow-ja-360');
  await partner.setViewportSize(DESKTOP);
  await screenshot(partner, 'outer-flow-ja-1280');
  const runLabel = partnersJa.outer.runLabel
    .replace('{{document}}', '業務委託契約書')
    .replace('{{type}}', partnersJa.taskType.approve);
  const approve = partner.getByRole('button', { name: runLabel, exact: true });
  expect(await approve.textContent()).toBe(partnersJa.outer.approve);
  await approve.click();
  await toast(partner, partnersJa.outer.approved.replace('{{document}}', '業務委託契約書')).waitFor();
  await partner.getByText(partnersJa.taskStatus.completed, exact).first().waitFor();
  const done = await app.service.deps.knex('tasks').where({ id: tasks[0]!.id }).first();
  expect(done.status).toBe('completed');
  // The owner's step completes the document.
  expect((await step(app, token, 'approveTask', tasks[1]!.id)).status).toBe(200);

  // The used link has its own page.
  const used = await browser.open({ app, viewport: MOBILE });
  await used.goto(path);
  await heading(used, partnersJa.deadLink.usedTitle);
  await screenshot(used, 'partner-link-used-ja-360');

  // An expired link has its own page too (English, desktop).
  const second = 'late-partner@example.com';
  await app.api.call('invitePartnerOrganization', {
    token,
    params: { workspaceId: workspace.id },
    body: { data: { type: 'WorkspaceInvitation', attributes: { email: second, locale: 'en' } } },
  });
  const late = await joinPathFor(second);
  expect(late.mail.subject).toContain('invites you');
  const english = await browser.open({ app, language: 'en', viewport: DESKTOP });
  await english.goto(late.path);
  await heading(english, partnersEn.join.title);
  await screenshot(english, 'partner-join-en-1280');
  await english.setViewportSize(MOBILE);
  await screenshot(english, 'partner-join-en-360');
  await app.service.deps
    .knex('workspace_invitations')
    .where({ email: second })
    .update({ expires_at: new Date(Date.now() - 60_000) });
  await english.reload();
  await heading(english, partnersEn.deadLink.expiredTitle);
  await screenshot(english, 'partner-link-expired-en-360');
  await english.setViewportSize(DESKTOP);
  await screenshot(english, 'partner-link-expired-en-1280');

  // An unknown (or re-sent, or cancelled) link: the invalid page.
  await english.goto(`/workspaces/${workspace.id}/join?invitation=nonsense`);
  await heading(english, partnersEn.deadLink.invalidTitle);
  await screenshot(english, 'partner-link-invalid-en-1280');
}, 180_000);

it('shows the outer business flow page in English, at 1280 and 360 px', async () => {
  const owner = await signUpOrganization(app, { organizationName: 'Owner Corp' });
  const { authorizationToken: token } = await signIn(app, owner.loginId, owner.password);
  const groupId = await firstGroupId(app, owner.organizationId);
  const partner = await signUpOrganization(app, { organizationName: 'Partner Studio', locale: 'en' });
  const workspace = await createWorkspace(app, token, [
    { kind: 'group', groupId },
    { kind: 'organization', organizationId: partner.organizationId, isPublic: true },
  ]);
  const flow = await createFlow(app, token, workspace.id, { name: 'Design contract 2026' });
  const documentId = await newDocument(app, token, flow.id, 'clean', 'Service agreement');
  await plan(app, token, documentId, [
    groupTask(1, 'approve', groupId),
    partnerTask(2, 'read', partner.organizationId),
  ]);
  const page = await browser.openSignedIn({
    app,
    language: 'en',
    session: await signIn(app, partner.loginId, partner.password),
    path: `/outer-business-flows/${flow.id}`,
    heading: 'Design contract 2026',
  });
  await page.getByText(partnersEn.outer.myTasks, exact).waitFor();
  await page.getByText(partnersEn.taskStatus.waiting, exact).first().waitFor();
  await screenshot(page, 'outer-flow-en-1280');
  await page.setViewportSize(MOBILE);
  await screenshot(page, 'outer-flow-en-360');
}, 90_000);
