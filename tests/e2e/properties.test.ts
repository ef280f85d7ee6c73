import { describe, expect, it } from 'vitest';
import ja from '../../web/src/features/properties/i18n/ja.json' with { type: 'json' };
import { exact, MOBILE, screenshot, TEXTS, useApp, useBrowser, type Viewport } from '../helpers/browser.ts';

// The custom property screens in chromium against the real service; the API checks what the server stored.

const app = useApp();
const browser = useBrowser();
const errors = TEXTS.ja.errors as Record<string, string>;

async function openScreen(plan: 'free' | 'standard', viewport?: Viewport) {
  const { org, token, page } = await browser.openAsOwner({
    app,
    plan,
    viewport,
    path: '/organizations/settings/properties',
    heading: ja.title,
  });
  return { org, token, page };
}

describe('custom property screens', () => {
  it('creates an enum property with options, then reports options changed by another user and reloads them', async () => {
    const { token, page } = await openScreen('standard');
    await page.getByText(ja.list.empty, exact).waitFor();
    await page.getByRole('button', { name: ja.list.create, exact: true }).click();
    await page.getByLabel(ja.fields.name, exact).fill('契約区分');
    await page.getByLabel(ja.fields.inputType, exact).selectOption({ label: ja.inputTypes['40'] });
    await page.getByRole('button', { name: ja.options.add, exact: true }).click();
    await page.getByLabel('選択肢1', exact).fill('売買');
    await page.getByRole('button', { name: ja.options.add, exact: true }).click();
    await page.getByLabel('選択肢2', exact).fill('賃貸');
    await page.getByLabel(ja.preview.label, exact).selectOption({ label: '賃貸' });
    await page.getByText('入力できます。「賃貸」として保存されます。', exact).waitFor();
    await page.getByRole('button', { name: ja.form.create, exact: true }).click();

    await page.getByRole('heading', { level: 1, name: '契約区分', exact: true }).waitFor();
    const list = await app.api.call('listProperties', { token });
    const property = list.body.data[0];
    expect(property.attributes).toMatchObject({ inputType: 40, optionsVersion: 0 });
    expect(property.attributes.options.map((o: { label: string }) => o.label)).toEqual(['売買', '賃貸']);

    const other = await app.api.call('updateProperty', {
      token,
      params: { propertyId: property.id },
      body: {
        data: {
          type: 'Property',
          attributes: {
            lockVersion: 0,
            optionsVersion: 0,
            options: [
              ...property.attributes.options.map(({ id, label }: { id: string; label: string }) => ({ id, label })),
              { label: 'リース' },
            ],
          },
        },
      },
    });
    expect(other.status).toBe(200);
    await page.getByLabel('選択肢1', exact).fill('売買(更新)');
    await page.getByRole('button', { name: ja.form.save, exact: true }).click();
    await page.getByText(errors.PROPERTY_OPTIONS_CHANGED!, exact).waitFor();
    await page.getByRole('button', { name: ja.detail.reload, exact: true }).click();
    await expect.poll(() => page.getByLabel('選択肢3', exact).inputValue()).toBe('リース');
    expect(await page.getByLabel('選択肢1', exact).inputValue()).toBe('売買');
    await screenshot(page, 'properties-options-reloaded');
  });

  it('checks a yen value in the preview with the shared validator on a 360 px screen', async () => {
    const { page } = await openScreen('standard', MOBILE);
    await page.getByRole('button', { name: ja.list.create, exact: true }).click();
    await page.getByLabel(ja.fields.inputType, exact).selectOption({ label: ja.inputTypes['10'] });
    await page.getByLabel(ja.fields.numberUnit, exact).selectOption({ label: ja.units['20'] });
    const value = page.getByLabel(ja.preview.label, exact);
    await value.fill('12,34');
    await page.getByText(errors.PROPERTY_VALUE_COMMA_POSITION!, exact).waitFor();
    await value.fill('1,234,567');
    await page.getByText('入力できます。「1234567」として保存されます。', exact).waitFor();
    await page.getByRole('button', { name: ja.form.create, exact: true }).click();
    await page.getByText(`${ja.fields.name}: ${errors.PROPERTY_VALUE_REQUIRED}`, exact).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'properties-preview-mobile');
  });

  it('shows the free plan notice and no create button on the free plan', async () => {
    const { page } = await openScreen('free');
    await page.getByText(ja.freePlan, exact).waitFor();
    await page.getByText(ja.list.empty, exact).waitFor();
    expect(await page.getByRole('button', { name: ja.list.create, exact: true }).count()).toBe(0);
  });
});
