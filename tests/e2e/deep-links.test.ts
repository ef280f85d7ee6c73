import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import documentsEn from '../../web/src/features/documents/i18n/en.json' with { type: 'json' };
import documentsJa from '../../web/src/features/documents/i18n/ja.json' with { type: 'json' };
import ja from '../../web/src/i18n/ja/signing.json' with { type: 'json' };
import { firstGroupId } from '../helpers/accounts.ts';
import { exact, heading, mailedLink, switchLanguage, useApp, useBrowser } from '../helpers/browser.ts';
import { seedBusinessFlow } from '../helpers/business-flows.ts';
import { markScanned, uploadPdf } from '../helpers/documents.ts';
import { captureScreens } from '../helpers/screens.ts';

// A task mail's link in chromium: the signed-in member clicks it, lands on the signing screen with the arrival
// confirmed by the link itself (no confirmation prompt), signs, and downloads the signed PDF and the completion
// certificate from the completed document's page under the document's name.

const app = useApp({ plugins: BUILT_IN_PLUGINS.filter((plugin) => !/scan/.test(plugin.name)) });
const browser = useBrowser();

describe('mail deep links', () => {
  it('opens the signing screen from the task mail with the arrival confirmed, then downloads the signed PDF and certificate', async () => {
    const { org, token, page } = await browser.openAsOwner({ app, path: '/' });
    const { knex } = app.service.deps;
    const groupId = await firstGroupId(app, org.organizationId);
    const { businessFlowId } = await seedBusinessFlow(app, {
      organizationId: org.organizationId,
      groupId,
      createdBy: org.ownerId,
      name: '売買契約 2026',
    });
    const uploaded = await uploadPdf(app, token, businessFlowId, { name: '業務委託契約書' });
    await markScanned(app, uploaded.id);
    const documentId = uploaded.id;
    const lockVersion = (await app.api.call('getDocument', { token, params: { documentId } })).body.data.attributes
      .lockVersion;
    const planned = await app.api.call('replaceDocumentTasks', {
      token,
      params: { documentId },
      body: {
        data: {
          type: 'DocumentTasks',
          attributes: {
            lockVersion,
            tasks: [
              {
                order: 1,
                type: 'sign',
                assignee: { kind: 'group', groupId },
                required: true,
                signatureType: 'operator',
                twoFactor: 'none',
              },
            ],
          },
        },
      },
    });
    expect(planned.status, JSON.stringify(planned.body)).toBe(200);
    const taskId = planned.body.data[0].id as string;
    expect((await knex('users').where({ id: org.ownerId }).first()).email_confirmed_address).toBeNull();

    // The task mail links to the signing screen of the task; the member clicks it while signed in.
    const { path } = await mailedLink(app, org.email, `/organizations/documents/${documentId}/tasks/${taskId}/sign`);
    expect(path).toContain('mailToken=');
    await page.goto(path);
    await heading(page, ja.sign.title);
    // The token did its work and left the address bar; the arrival is confirmed, so no confirmation is asked.
    await expect.poll(() => new URL(page.url()).search).not.toContain('mailToken');
    expect(new URL(page.url()).pathname).toBe(`/organizations/documents/${documentId}/tasks/${taskId}/sign`);
    expect((await knex('users').where({ id: org.ownerId }).first()).email_confirmed_address).toBe(org.email);
    const submit = page.getByRole('button', { name: ja.form.submit, exact: true });
    await submit.waitFor();
    expect(await page.getByText(ja.emailConfirmation.title, exact).count()).toBe(0);
    await page.locator('canvas[data-rendered-page="1"]').first().waitFor({ timeout: 30_000 });
    await captureScreens(page, 'deep-link-signing');

    await submit.click();
    await page.getByRole('heading', { name: ja.done.title, exact: true }).waitFor({ timeout: 60_000 });

    // The completed document's page: the signed PDF and the certificate, named after the document.
    await page.goto(`/organizations/documents/${documentId}`);
    await heading(page, '業務委託契約書');
    const panel = page.getByRole('region', { name: documentsJa.completed.title });
    await panel.waitFor();
    const [signed] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: documentsJa.completed.downloadSigned, exact: true }).click(),
    ]);
    expect(signed.suggestedFilename()).toBe('業務委託契約書_signed.pdf');
    expect((await readFile((await signed.path())!)).toString('latin1')).toContain('/ByteRange');
    const [certificate] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      panel.getByRole('button', { name: documentsJa.completed.downloadCertificate, exact: true }).click(),
    ]);
    expect(certificate.suggestedFilename()).toBe('業務委託契約書_合意締結証明書.pdf');
    expect((await readFile((await certificate.path())!)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await captureScreens(page, 'document-completed');
    await switchLanguage(page, 'ja', 'en');
    await page.getByRole('region', { name: documentsEn.completed.title }).waitFor();
    await captureScreens(page, 'document-completed');
  }, 240_000);
});
