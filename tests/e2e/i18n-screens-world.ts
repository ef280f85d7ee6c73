// Callbacks passed to page.evaluate run in the browser: they see the DOM.
import type { Page } from 'playwright-core';
import { firstGroupId } from '../helpers/accounts.ts';
import type { TestApp } from '../helpers/app.ts';
import { type BrowserHarness, type Language, signUpOrganization } from '../helpers/browser.ts';
import { insertFlow } from '../helpers/business-flows.ts';
import { captureScreens } from '../helpers/screens.ts';
import { groupTask, newDocument, partnerTask, plan } from '../helpers/tasks.ts';
import { seedWorkspace } from '../helpers/workspaces.ts';
import { SETTINGS_SECTIONS } from '../../web/src/components/settings-sections.ts';

// What the i18n-screens*.test.ts files share: the organization they seed and the screens they capture. Every main
// screen is captured in ja and en at 1280 and 360 px, one file a language (the signed-out screens in a third) so
// that the files run side by side; captureScreens fails on a visible i18n key, or English on a ja screen.

/** Waits until the screen has its heading and nothing is loading any more. */
async function settle(page: Page) {
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0);
}

/** Opens each screen in turn and captures it; returns what failed, one line a screen. */
export async function visitScreens(page: Page, screens: readonly (readonly [string, string])[]): Promise<string[]> {
  const failures: string[] = [];
  for (const [path, name] of screens) {
    try {
      await page.goto(path);
      await settle(page);
      await captureScreens(page, `screens-${name}`);
    } catch (error) {
      failures.push(`${path}: ${(error as Error).message}`);
    }
  }
  return failures;
}

/** The screens a signed-out visitor sees. */
export const SIGNED_OUT_SCREENS = [
  ['/login', 'login'],
  ['/signup', 'signup'],
  ['/forget-password', 'forget-password'],
  ['/notice-user-id', 'notice-user-id'],
] as const;

/**
 * One organization seeded over the API and the database (a workspace shared with a partner, a flow, a document with
 * a sign task for the owner's group and one for the partner), its owner signed in on a page in `language`; then
 * every signed-in screen visited. Returns what failed.
 */
export async function checkSignedInScreens(
  app: TestApp,
  browser: BrowserHarness,
  language: Language,
): Promise<string[]> {
  const { org, token, page } = await browser.openAsOwner({ app, language });
  const { knex } = app.service.deps;
  const partner = await signUpOrganization(app, { organizationName: '株式会社取引先' });
  const groupId = await firstGroupId(app, org.organizationId);
  const member = await knex('group_members').where({ group_id: groupId, user_id: org.ownerId }).first();
  if (!member) await knex('group_members').insert({ group_id: groupId, user_id: org.ownerId });
  const workspaceId = await seedWorkspace(
    app,
    org.organizationId,
    [
      { groupId, isEditable: true },
      { partnerOrganizationId: partner.organizationId, isPublic: false },
    ],
    { name: '取引先との契約' },
  );
  const flowId = await insertFlow(app, org.organizationId, workspaceId, {
    name: '売買契約二〇二六',
    createdBy: org.ownerId,
  });
  const documentId = await newDocument(app, token, flowId, 'clean', '売買契約書');
  const [signTask] = await plan(app, token, documentId, [
    groupTask(1, 'sign', groupId),
    partnerTask(2, 'sign', partner.organizationId),
  ]);

  const screens: [string, string][] = [
    ['/', 'home'],
    ['/organizations/workspaces', 'workspaces'],
    [`/organizations/workspaces/${workspaceId}`, 'workspace'],
    ['/organizations/business-flows', 'business-flows'],
    [`/business-flows/${flowId}`, 'business-flow'],
    [`/organizations/documents/${documentId}`, 'document'],
    [`/organizations/documents/${documentId}/tasks/${signTask!.id}/sign`, 'sign-task'],
    ['/organizations/signatures/verify', 'verify'],
    ['/organizations/tasks', 'tasks'],
    ['/organizations/templates', 'templates'],
    ['/account', 'account'],
    ...SETTINGS_SECTIONS.map(({ path }): [string, string] => [`/organizations/settings/${path}`, `settings-${path}`]),
    ['/organizations/settings/users/new', 'settings-users-new'],
    ['/organizations/no-such-screen', 'not-found-organizations'],
    ['/no-such-page', 'not-found'],
  ];
  return visitScreens(page, screens);
}
