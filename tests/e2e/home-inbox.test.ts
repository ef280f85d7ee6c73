import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import homeEn from '../../web/src/features/home/i18n/en.json' with { type: 'json' };
import homeJa from '../../web/src/features/home/i18n/ja.json' with { type: 'json' };
import { firstGroupId } from '../helpers/accounts.ts';
import {
  exact,
  heading,
  landedOn,
  MOBILE,
  DESKTOP,
  TEXTS,
  useApp,
  useBrowser,
  type Language,
} from '../helpers/browser.ts';
import { createFlow } from '../helpers/business-flows.ts';
import { markScanned, uploadPdf } from '../helpers/documents.ts';
import { captureScreens } from '../helpers/screens.ts';
import { groupTask, plan } from '../helpers/tasks.ts';

// The home screen as the inbox, in chromium against the real service: a task waiting for the owner and a draft of
// theirs are listed with counts, the task's link opens its signing screen and the draft's the send wizard.

const app = useApp();
const browser = useBrowser();
const HOME = { ja: homeJa, en: homeEn } as const;

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** No horizontal scrolling at 360 px; then the screens of the page in its language at 1280 and 360 px. */
async function captureHome(page: Page, language: Language) {
  await page.setViewportSize(MOBILE);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await page.setViewportSize(DESKTOP);
  await captureScreens(page, 'home');
  expect(language).toBe(await page.evaluate(() => document.documentElement.lang));
}

/** An organization whose owner has a sign task waiting (a clean PDF in a flow) and a draft flow. */
async function seedInbox(language: Language) {
  const { org, pair, token, page } = await browser.openAsOwner({
    app,
    language,
    overrides: { organizationName: '株式会社受信箱', userName: '受信 太郎' },
  });
  const groupId = await firstGroupId(app, org.organizationId);
  const created = await app.api.call('createWorkspace', {
    token,
    body: {
      data: {
        type: 'Workspace',
        attributes: { name: '受信箱の取引', participants: [{ kind: 'group', groupId, isEditable: true }] },
      },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const workspaceId = created.body.data.id as string;
  const flow = await createFlow(app, token, workspaceId, { name: '業務委託契約フロー' });
  const document = await uploadPdf(app, token, flow.id, { name: '業務委託契約書' });
  await markScanned(app, document.id, 'clean');
  const [task] = await plan(app, token, document.id, [groupTask(1, 'sign', groupId, { signatureType: 'operator' })]);
  // A draft as the send wizard leaves it (its own tests create drafts through the API).
  const owner = await app.service.deps.knex('users').where({ login_id: org.loginId }).first('id');
  const [draft] = await app.service.deps
    .knex('business_flows')
    .insert({
      organization_id: org.organizationId,
      workspace_id: workspaceId,
      name: '秘密保持契約の下書き',
      status: 'draft',
      created_by: owner.id,
    })
    .returning('id');
  return { org, pair, page, documentId: document.id, taskId: task!.id, draftId: draft.id as string };
}

describe('home inbox', () => {
  for (const language of ['ja', 'en'] as const) {
    it(`lists a waiting sign task and a draft with counts; the links open the signing screen and the wizard (${language})`, async () => {
      const texts = HOME[language];
      const { page, documentId, taskId, draftId } = await seedInbox(language);
      await page.goto('/');
      await heading(page, TEXTS[language].auth.home.title);

      const waiting = page.getByRole('region', { name: texts.sections.waitingForMe.title });
      await waiting.getByRole('link', { name: '業務委託契約書', exact: true }).waitFor();
      expect(await page.getByTestId('inbox-waitingForMe-count').textContent()).toBe(
        texts.count.replace('{{number}}', '1'),
      );
      const drafts = page.getByRole('region', { name: texts.sections.drafts.title });
      await drafts.getByRole('link', { name: '秘密保持契約の下書き', exact: true }).waitFor();
      expect(await page.getByTestId('inbox-drafts-count').textContent()).toBe(texts.count.replace('{{number}}', '1'));
      await page.getByRole('link', { name: texts.newSend, exact: true }).waitFor();
      // The owner has not confirmed their e-mail address: a notice says so, with a link.
      await page.locator('[data-code="EMAIL_NOT_CONFIRMED"]').waitFor();
      // Who is signed in stays on the page, below the inbox.
      await page.getByText('株式会社受信箱', exact).waitFor();
      await captureHome(page, language);

      await waiting
        .getByRole('link', { name: texts.item.signLabel.replace('{{name}}', '業務委託契約書'), exact: true })
        .click();
      await landedOn(page, `/organizations/documents/${documentId}/tasks/${taskId}/sign`);

      await page.goto('/');
      await heading(page, TEXTS[language].auth.home.title);
      await page
        .getByRole('region', { name: texts.sections.drafts.title })
        .getByRole('link', { name: '秘密保持契約の下書き', exact: true })
        .click();
      const url = await landedOn(page, '/organizations/business-flows/new');
      expect(url.searchParams.get('draft')).toBe(draftId);
    });
  }
});
