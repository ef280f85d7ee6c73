import { expect, it } from 'vitest';
import flowsJa from '../../web/src/features/business-flows/i18n/ja.json' with { type: 'json' };
import ja from '../../web/src/features/documents/i18n/ja.json' with { type: 'json' };
import tasksJa from '../../web/src/features/tasks/i18n/ja.json' with { type: 'json' };
import workspacesJa from '../../web/src/features/workspaces/i18n/ja.json' with { type: 'json' };
import sendWizardJa from '../../web/src/features/send-wizard/i18n/ja.json' with { type: 'json' };
import { firstGroupId } from '../helpers/accounts.ts';
import {
  exact,
  heading,
  landedOn,
  screenshot,
  signIn,
  signUpOrganization,
  toast,
  useApp,
  useBrowser,
} from '../helpers/browser.ts';
import { recipientOf, waitForMail } from '../helpers/mail.ts';
import { buildPdf } from '../helpers/pdf.ts';

// The flow, end to end in two browsers against the real service with its built-in plugins (the malware
// scan runs as a job): organization A shares a workspace with organization B, uploads a PDF, plans an approve task
// for its own group and a read task for B; A approves, B reads from "my tasks", the flow completes by itself and
// both organizations' users receive the completion mail.

const app = useApp();
const browser = useBrowser();
const B_CORPORATE_NUMBER = '7000012050002';

it('two organizations complete a flow: A approves, B reads, the flow auto-completes and both get the completion mail', async () => {
  const partner = await signUpOrganization(app, {
    organizationName: '株式会社取引先',
    corporateNumber: B_CORPORATE_NUMBER,
  });
  const { org, token, page } = await browser.openAsOwner({ app, overrides: { organizationName: '株式会社発注元' } });
  const groupId = await firstGroupId(app, org.organizationId);
  const group = await app.service.deps.knex('groups').where({ id: groupId }).first('name');

  // A creates the workspace with its group, then adds B by its corporate number.
  await page.goto('/organizations/workspaces');
  await heading(page, workspacesJa.title);
  await page.getByRole('button', { name: workspacesJa.list.create, exact: true }).click();
  await page.getByLabel(workspacesJa.fields.name, exact).fill('取引先との契約');
  await page.getByLabel(group.name as string, exact).check();
  await page.getByRole('button', { name: workspacesJa.form.create, exact: true }).click();
  await landedOn(page, /^\/organizations\/workspaces\/[0-9a-f-]{36}$/);
  await heading(page, '取引先との契約');
  await page.getByLabel(workspacesJa.addPartner.corporateNumber, exact).fill(B_CORPORATE_NUMBER);
  await page.getByRole('button', { name: workspacesJa.addPartner.find, exact: true }).click();
  await page.getByRole('button', { name: workspacesJa.addPartner.confirm, exact: true }).click();
  await toast(page, workspacesJa.addPartner.added.replace('{{name}}', '株式会社取引先')).waitFor();

  // A creates a business flow in it and uploads a PDF, previewed before upload.
  await page.getByRole('link', { name: workspacesJa.flows.create, exact: true }).click();
  // The link opens the send wizard; this test takes its link to the full creation form.
  await page.getByRole('link', { name: sendWizardJa.documents.detailsLink, exact: true }).click();
  await heading(page, flowsJa.new.title);
  await page.getByLabel(flowsJa.fields.name, exact).fill('2026年度 売買契約');
  await page.getByRole('button', { name: flowsJa.new.submit, exact: true }).click();
  const flowUrl = await landedOn(page, /^\/business-flows\/[0-9a-f-]{36}$/);
  const businessFlowId = flowUrl.pathname.split('/').pop()!;
  await page.getByRole('link', { name: flowsJa.documents.upload, exact: true }).click();
  await heading(page, ja.upload.title);
  await page
    .getByLabel(ja.upload.fileLabel, exact)
    .setInputFiles({ name: 'sales-contract.pdf', mimeType: 'application/pdf', buffer: await buildPdf({ pages: 2 }) });
  await page.locator('canvas[data-rendered-page="1"]').waitFor();
  await page.getByLabel(ja.upload.name, exact).fill('売買契約書');
  await page.getByRole('button', { name: ja.upload.submit, exact: true }).click();
  const documentUrl = await landedOn(page, /^\/organizations\/documents\/[0-9a-f-]{36}$/);
  await heading(page, '売買契約書');

  // The built-in scan engine's job clears the file: the preview appears once the verdict is in.
  await page.locator('canvas[data-rendered-page="1"]').waitFor({ timeout: 45_000 });

  // A plans an approve task for its own group and a read task for B.
  const first = page.getByRole('group', { name: '1行目', exact: true });
  await first.getByLabel(ja.editor.type, exact).selectOption({ label: ja.taskTypes.approve });
  await first.getByLabel(ja.editor.assignee, exact).selectOption({ label: `グループ：${group.name as string}` });
  await page.getByRole('button', { name: ja.editor.add, exact: true }).click();
  const second = page.getByRole('group', { name: '2行目', exact: true });
  await second.getByLabel(ja.editor.type, exact).selectOption({ label: ja.taskTypes.read });
  await second.getByLabel(ja.editor.assignee, exact).selectOption({ label: '取引先：株式会社取引先' });
  await page.getByRole('button', { name: ja.editor.save, exact: true }).click();
  await toast(page, ja.editor.saved).waitFor();

  // A's user approves in the browser.
  await page.getByRole('button', { name: ja.actions.approve, exact: true }).click();
  await toast(page, ja.actions.approved).waitFor();
  await screenshot(page, 'two-orgs-a-approved');

  // B's user, in a browser context of their own, finds the read task in "my tasks", views and reads it.
  const pair = await signIn(app, partner.loginId, partner.password);
  const other = await browser.openSignedIn({
    app,
    session: pair,
    path: '/organizations/tasks',
    heading: tasksJa.title,
  });
  await other.getByRole('link', { name: '売買契約書', exact: true }).click();
  await landedOn(other, documentUrl.pathname);
  await heading(other, '売買契約書');
  await other.locator('canvas[data-rendered-page="1"]').waitFor({ timeout: 30_000 });
  await other.getByRole('button', { name: ja.actions.read, exact: true }).click();
  await toast(other, ja.actions.readDone).waitFor();
  await screenshot(other, 'two-orgs-b-read');

  // The flow completed by itself: its detail says so.
  await page.goto(`/business-flows/${businessFlowId}`);
  await heading(page, '2026年度 売買契約');
  await page.locator('.badge, .status-badge').filter({ hasText: flowsJa.status.complete }).first().waitFor();
  const flow = await app.api.call('getBusinessFlow', { token, params: { businessFlowId } });
  expect(flow.body.data.attributes.status).toBe('complete');
  await screenshot(page, 'two-orgs-flow-complete');

  // Both organizations' users received the completion mail.
  for (const email of [org.email, partner.email]) {
    const mail = await waitForMail(
      app,
      (candidate) => recipientOf(candidate).includes(email) && (candidate.subject ?? '').includes('2026年度 売買契約'),
      20_000,
    );
    expect(mail.subject).toContain('完了しました');
  }
}, 120_000);
