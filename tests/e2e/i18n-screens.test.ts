import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { firstGroupId } from '../helpers/accounts.ts';
import { LANGUAGE_KEY, type Language, signUpOrganization, useApp, useBrowser } from '../helpers/browser.ts';
import { insertFlow } from '../helpers/business-flows.ts';
import { captureScreens, problemsIn } from '../helpers/screens.ts';
import { groupTask, newDocument, partnerTask, plan } from '../helpers/tasks.ts';
import { seedWorkspace } from '../helpers/workspaces.ts';
import { SETTINGS_SECTIONS } from '../../web/src/components/settings-sections.ts';

// Every main screen in ja and en at 1280 and 360 px: captureScreens fails on a visible i18n key, or English on a
// ja screen. One organization seeded over the API and the database, one signed-in page, both languages.

const app = useApp();
const browser = useBrowser();

/** Waits until the screen has its heading and nothing is loading any more. */
async function settle(page: Page) {
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0);
}

async function visit(page: Page, path: string, name: string) {
  await page.goto(path);
  await settle(page);
  await captureScreens(page, `screens-${name}`);
}

async function useLanguage(page: Page, language: Language) {
  await page.evaluate(({ key, value }) => window.localStorage.setItem(key, value), {
    key: LANGUAGE_KEY,
    value: language,
  });
}

describe('captureScreens', () => {
  it('finds i18n keys and English words on a ja screen, but not names, addresses, file names or IDs', () => {
    expect(problemsIn({ texts: ['home.title', 'errors.FLOW_CANCELLED が発生'], keysOnly: [] }, 'ja')).toHaveLength(2);
    expect(problemsIn({ texts: ['Save changes'], keysOnly: [] }, 'ja')).toEqual([
      'English Save changes in "Save changes"',
    ]);
    expect(problemsIn({ texts: ['404 | Not Found'], keysOnly: [] }, 'ja')).toHaveLength(1);
    expect(
      problemsIn(
        {
          texts: [
            'owner-1234-5@example.com に送信しました。',
            'contract.pdf（PDF、1 MB）',
            'ユーザーID：owner-1234-5',
            'QRコードとSMSで認証します。',
          ],
          keysOnly: ['systemLinkId'],
        },
        'ja',
      ),
    ).toEqual([]);
    expect(problemsIn({ texts: ['Save changes', 'Acme Inc.'], keysOnly: [] }, 'en')).toEqual([]);
    expect(problemsIn({ texts: ['Acme Inc. との契約'], keysOnly: [] }, 'ja', ['Acme Inc.'])).toEqual([]);
  });
});

describe('every main screen in ja and en', () => {
  it('shows no i18n key and, in ja, no English', { timeout: 600_000 }, async () => {
    const { org, token, page } = await browser.openAsOwner({ app, language: 'ja' });
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
    const failures: string[] = [];
    for (const language of ['ja', 'en'] as const) {
      await useLanguage(page, language);
      for (const [path, name] of screens) {
        await visit(page, path, name).catch((error: Error) => failures.push(`${path}: ${error.message}`));
      }
    }

    // The signed-out screens, in a page of their own.
    for (const language of ['ja', 'en'] as const) {
      const signedOut = await browser.open({ app, language });
      for (const [path, name] of [
        ['/login', 'login'],
        ['/signup', 'signup'],
        ['/forget-password', 'forget-password'],
        ['/notice-user-id', 'notice-user-id'],
      ] as const) {
        await visit(signedOut, path, name).catch((error: Error) => failures.push(`${path}: ${error.message}`));
      }
    }
    expect(failures).toEqual([]);
  });
});
