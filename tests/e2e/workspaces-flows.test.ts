import { describe, expect, it } from 'vitest';
import { DATA_LIST_TEXTS } from '../../web/src/components/data-list-texts.ts';
import flowsJa from '../../web/src/features/business-flows/i18n/ja.json' with { type: 'json' };
import wsJa from '../../web/src/features/workspaces/i18n/ja.json' with { type: 'json' };
import { firstGroupId } from '../helpers/accounts.ts';
import {
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
  type Viewport,
} from '../helpers/browser.ts';

// The workspace and business flow screens in chromium against the real service; the API checks what was stored.

const app = useApp();
const browser = useBrowser();
const common = TEXTS.ja.common;

/** A valid corporate number (check digit 7 over 000012050002). */
const PARTNER_NUMBER = '7000012050002';

/** An organization on the standard plan (custom properties need it) with its owner signed in on a page. */
async function owner(path: string, title: string, viewport?: Viewport) {
  const { org, token, page } = await browser.openAsOwner({
    app,
    overrides: { organizationName: '株式会社発注元' },
    plan: 'standard',
    viewport,
    path,
    heading: title,
  });
  return { org, token, page };
}

async function createWorkspace(token: string, organizationId: string, name: string) {
  const groupId = await firstGroupId(app, organizationId);
  const response = await app.api.call('createWorkspace', {
    token,
    body: { data: { type: 'Workspace', attributes: { name, participants: [{ kind: 'group', groupId }] } } },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id as string;
}

async function createAmountProperty(token: string) {
  const response = await app.api.call('createProperty', {
    token,
    body: {
      data: {
        type: 'Property',
        attributes: { name: '取引金額', inputType: 10, scope: 10, numberUnit: 20, integerLength: 12 },
      },
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id as string;
}

describe('workspace screens', () => {
  it('lands on the workspace list from the main menu and creates a workspace with a partner found by corporate number', async () => {
    const { org, token, page } = await owner('/', TEXTS.ja.auth.home.title);
    const partner = await signUpOrganization(app, { organizationName: '株式会社取引先' });
    await app.service.deps
      .knex('organizations')
      .where({ id: partner.organizationId })
      .update({ corporate_number: PARTNER_NUMBER });

    await page
      .getByRole('navigation', { name: common.nav.label })
      .getByRole('link', { name: common.nav.workspaces })
      .click();
    await heading(page, wsJa.title);
    // Sign-up made the organization's first workspace, so a new organization can send at once.
    await page
      .getByText(/の契約$/)
      .first()
      .waitFor();

    await page.getByRole('button', { name: wsJa.list.create, exact: true }).click();
    await page.getByRole('button', { name: wsJa.form.create, exact: true }).click();
    await page.getByText(wsJa.validation.groupRequired, exact).first().waitFor();
    await field(page, wsJa.fields.name).fill('2026年度 売買契約');
    await field(page, wsJa.fields.systemLinkId).fill('WS-2026');
    const groups = await app.api.call('listGroups', { token, query: { sort: 'name' } });
    await field(page, groups.body.data[0].attributes.name).check();
    await page.getByRole('button', { name: wsJa.form.create, exact: true }).click();
    await heading(page, '2026年度 売買契約');
    await landedOn(page, /^\/organizations\/workspaces\/[0-9a-f-]{36}$/);

    await field(page, wsJa.addPartner.corporateNumber).fill('12345');
    await page.getByRole('button', { name: wsJa.addPartner.find, exact: true }).click();
    await page.getByText(wsJa.addPartner.invalid, exact).waitFor();
    await field(page, wsJa.addPartner.corporateNumber).fill(PARTNER_NUMBER);
    await page.getByRole('button', { name: wsJa.addPartner.find, exact: true }).click();
    await page.getByText(`見つかった組織：株式会社取引先（法人番号 ${PARTNER_NUMBER}）`, exact).waitFor();
    await page.getByRole('button', { name: wsJa.addPartner.confirm, exact: true }).click();
    await toast(page, '取引先「株式会社取引先」を追加しました。').waitFor();
    const table = page.getByRole('region', { name: wsJa.participants.tableLabel });
    await table.getByRole('cell', { name: `株式会社取引先 (${PARTNER_NUMBER})`, exact: true }).waitFor();

    const list = await app.api.call('listWorkspaces', { token });
    // The sign-up's first workspace and the one made here.
    expect(list.body.data).toHaveLength(2);
    const created = list.body.data.find(
      (w: { attributes: { name: string } }) => w.attributes.name === '2026年度 売買契約',
    );
    const detail = await app.api.call('getWorkspace', { token, params: { workspaceId: created.id } });
    expect(detail.body.data.attributes.systemLinkId).toBe('WS-2026');
    const partners = detail.body.data.attributes.participants.filter(
      (p: { attributes: { kind: string } }) => p.attributes.kind === 'organization',
    );
    expect(partners).toMatchObject([
      { attributes: { organizationId: partner.organizationId, isPublic: false, isEditable: false } },
    ]);
    expect(org.organizationId).not.toBe(partner.organizationId);
    await screenshot(page, 'workspace-detail-with-partner');
  });

  it('refuses to delete a workspace with business flows and shows why', async () => {
    const { org, token, page } = await owner('/', TEXTS.ja.auth.home.title);
    const workspaceId = await createWorkspace(token, org.organizationId, '削除できないワークスペース');
    const flow = await app.api.call('createBusinessFlow', {
      token,
      params: { workspaceId },
      body: { data: { type: 'BusinessFlow', attributes: { name: '既存の業務フロー' } } },
    });
    expect(flow.status, JSON.stringify(flow.body)).toBe(201);
    await page.goto(`/organizations/workspaces/${workspaceId}`);
    await heading(page, '削除できないワークスペース');
    await page.getByRole('link', { name: '既存の業務フロー', exact: true }).waitFor();
    await page.getByRole('button', { name: wsJa.detail.delete, exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: wsJa.detail.delete, exact: true }).click();
    await page.getByText(TEXTS.ja.errors.WORKSPACE_HAS_BUSINESS_FLOWS, exact).waitFor();
    expect((await app.api.call('getWorkspace', { token, params: { workspaceId } })).status).toBe(200);
  });
});

describe('business flow screens', () => {
  it('creates a flow with a number property, finds it by a number range and not by another, and exports CSV', async () => {
    const { org, token, page } = await owner('/', TEXTS.ja.auth.home.title);
    const workspaceId = await createWorkspace(token, org.organizationId, '売買ワークスペース');
    const amountId = await createAmountProperty(token);

    await page.goto(`/organizations/business-flows/new/details?workspaceId=${workspaceId}`);
    await heading(page, flowsJa.new.title);
    expect(await field(page, flowsJa.fields.workspace).inputValue()).toBe(workspaceId);
    await field(page, flowsJa.fields.name).fill('A社 売買契約');
    await field(page, '取引金額').fill('12,34');
    await page.getByText(TEXTS.ja.errors.PROPERTY_VALUE_COMMA_POSITION, exact).waitFor();
    await field(page, '取引金額').fill('1,500,000');
    await page.getByRole('button', { name: flowsJa.new.submit, exact: true }).click();
    await heading(page, 'A社 売買契約');
    const flowUrl = await landedOn(page, /^\/business-flows\/[0-9a-f-]{36}$/);
    await page.getByText('1500000', exact).waitFor();

    await page.goto('/organizations/business-flows');
    await heading(page, flowsJa.title);
    await field(page, flowsJa.search.addProperty).selectOption({ label: '取引金額' });
    await page.getByRole('button', { name: flowsJa.search.add, exact: true }).click();
    await field(page, '取引金額（から）').fill('1,000,000');
    await field(page, '取引金額（まで）').fill('2000000');
    await page.getByRole('button', { name: flowsJa.search.submit, exact: true }).click();
    const link = page.getByRole('link', { name: 'A社 売買契約', exact: true });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(flowUrl.pathname);
    const found = new URL(page.url());
    expect(found.searchParams.get('props')).toContain(amountId);

    await field(page, '取引金額（から）').fill('2000001');
    await field(page, '取引金額（まで）').fill('');
    await page.getByRole('button', { name: flowsJa.search.submit, exact: true }).click();
    await page.getByText(DATA_LIST_TEXTS.ja.emptySearch, exact).waitFor();
    expect(await link.count()).toBe(0);

    // The search is a link: opening the first URL again finds the flow again, with the conditions in the form.
    await page.goto(`${found.pathname}${found.search}`);
    await link.waitFor();
    expect(await field(page, '取引金額（から）').inputValue()).toBe('1000000');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: flowsJa.list.export, exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const csv = Buffer.concat(chunks).toString('utf8');
    expect(csv).toContain('A社 売買契約');
    expect(csv).toContain('取引金額');
  });

  it('creates a flow from a business flow template whose values fill the form, then marks it complete', async () => {
    const { org, token, page } = await owner('/', TEXTS.ja.auth.home.title);
    await createWorkspace(token, org.organizationId, 'テンプレート用');
    const amountId = await createAmountProperty(token);
    const template = await app.api.call('createBusinessFlowTemplate', {
      token,
      body: {
        data: {
          type: 'BusinessFlowTemplate',
          attributes: {
            name: '標準売買フロー',
            comment: 'テンプレートのコメント',
            autoComplete: false,
            properties: [{ propertyId: amountId, value: '300000' }],
          },
        },
      },
    });
    expect(template.status, JSON.stringify(template.body)).toBe(201);

    await page.goto('/organizations/business-flows/new/details');
    await heading(page, flowsJa.new.title);
    await field(page, flowsJa.fields.workspace).selectOption({ label: 'テンプレート用' });
    await field(page, flowsJa.fields.source).selectOption({ label: flowsJa.sources.template });
    await field(page, flowsJa.fields.template).selectOption({ label: '標準売買フロー' });
    expect(await field(page, flowsJa.fields.name).inputValue()).toBe('標準売買フロー');
    expect(await field(page, '取引金額').inputValue()).toBe('300000');
    expect(await field(page, flowsJa.fields.autoComplete).isChecked()).toBe(false);
    await page.getByRole('button', { name: flowsJa.new.submit, exact: true }).click();
    await heading(page, '標準売買フロー');
    const flowId = (await landedOn(page, /^\/business-flows\/[0-9a-f-]{36}$/)).pathname.split('/').pop()!;
    const stored = await app.api.call('getBusinessFlow', { token, params: { businessFlowId: flowId } });
    expect(stored.body.data.attributes).toMatchObject({
      businessFlowTemplateId: template.body.data.id,
      comment: 'テンプレートのコメント',
      autoComplete: false,
    });

    await page.getByRole('button', { name: flowsJa.detail.complete, exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: flowsJa.detail.complete, exact: true }).click();
    await toast(page, flowsJa.detail.completed).waitFor();
    await page.locator('.screen-header .badge').getByText(flowsJa.status.complete, exact).waitFor();
    await screenshot(page, 'business-flow-detail-complete');
  });

  it('shows CSV_EXPORT_LIMIT_EXCEEDED with the total when more than 1,000 flows match', async () => {
    const { org, token, page } = await owner('/', TEXTS.ja.auth.home.title);
    const workspaceId = await createWorkspace(token, org.organizationId, '大量の業務フロー');
    const rows = Array.from({ length: 1001 }, (_, i) => ({
      organization_id: org.organizationId,
      workspace_id: workspaceId,
      name: `一括投入 ${i + 1}`,
    }));
    await app.service.deps.knex.batchInsert('business_flows', rows, 500);
    await page.goto('/organizations/business-flows');
    await heading(page, flowsJa.title);
    // The list stops counting at 200 (meta.totalCapped): the pager says so and still offers the next page.
    await page.getByText('1〜20件目（200件以上、1ページ目）', exact).waitFor();
    expect(await page.getByRole('button', { name: DATA_LIST_TEXTS.ja.next, exact: true }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: flowsJa.list.export, exact: true }).click();
    await page.getByText('CSV出力は1000件までです（該当1001件）。検索条件で絞り込んでください。', exact).waitFor();
  });

  it('refuses a range whose from is after its to in the browser', async () => {
    const { token, page } = await owner('/', TEXTS.ja.auth.home.title);
    await createAmountProperty(token);
    await page.goto('/organizations/business-flows');
    await heading(page, flowsJa.title);
    await field(page, flowsJa.search.addProperty).selectOption({ label: '取引金額' });
    await page.getByRole('button', { name: flowsJa.search.add, exact: true }).click();
    await field(page, '取引金額（から）').fill('500');
    await field(page, '取引金額（まで）').fill('100');
    await page.getByRole('button', { name: flowsJa.search.submit, exact: true }).click();
    await page.getByText(TEXTS.ja.errors.SEARCH_RANGE_INVALID, exact).waitFor();
    expect(new URL(page.url()).searchParams.get('props')).toBeNull();
  });

  it('shows a stale edit as 409 with a reload, then cancels the flow with a required reason and offers no edits', async () => {
    const { org, token, page } = await owner('/', TEXTS.ja.auth.home.title);
    const workspaceId = await createWorkspace(token, org.organizationId, '取消確認用');
    const created = await app.api.call('createBusinessFlow', {
      token,
      params: { workspaceId },
      body: { data: { type: 'BusinessFlow', attributes: { name: '取り消す業務フロー' } } },
    });
    const flowId = created.body.data.id as string;
    await page.goto(`/business-flows/${flowId}`);
    await heading(page, '取り消す業務フロー');

    const other = await app.api.call('updateBusinessFlow', {
      token,
      params: { businessFlowId: flowId },
      body: { data: { type: 'BusinessFlow', attributes: { lockVersion: 0, comment: '別の利用者の更新' } } },
    });
    expect(other.status).toBe(200);
    await field(page, flowsJa.fields.name).fill('古い画面からの更新');
    await page.getByRole('button', { name: flowsJa.form.save, exact: true }).click();
    await page.getByText(TEXTS.ja.errors.UPDATED_BY_ANOTHER_USER, exact).waitFor();
    await page.getByRole('button', { name: DATA_LIST_TEXTS.ja.reload, exact: true }).click();
    await page.getByText('別の利用者の更新', exact).first().waitFor();
    expect(await field(page, flowsJa.fields.name).inputValue()).toBe('取り消す業務フロー');

    await page.getByRole('button', { name: flowsJa.detail.cancel, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: flowsJa.detail.cancel, exact: true }).click();
    await dialog.getByText(flowsJa.detail.cancelRequired, exact).waitFor();
    await dialog.getByLabel(flowsJa.fields.cancelComment, exact).fill('契約条件の見直しのため');
    await dialog.getByRole('button', { name: flowsJa.detail.cancel, exact: true }).click();
    await page.getByText(flowsJa.detail.cancelledNotice, exact).waitFor();
    await page.getByText('取り消しの理由：契約条件の見直しのため', exact).waitFor();
    expect(await page.getByRole('button', { name: flowsJa.form.save, exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: flowsJa.documents.upload, exact: true }).count()).toBe(0);
    const stored = await app.api.call('getBusinessFlow', { token, params: { businessFlowId: flowId } });
    expect(stored.body.data.attributes).toMatchObject({ status: 'cancelled', cancelComment: '契約条件の見直しのため' });
  });

  it('shows a partner the shared workspace read-only, with the owner organization named', async () => {
    const { org, token } = await owner('/', TEXTS.ja.auth.home.title);
    const partner = await signUpOrganization(app, { organizationName: '株式会社取引先' });
    const workspaceId = await createWorkspace(token, org.organizationId, '共有ワークスペース');
    const { body } = await app.api.call('getWorkspace', { token, params: { workspaceId } });
    const added = await app.api.call('addWorkspaceParticipant', {
      token,
      params: { workspaceId },
      body: {
        data: {
          type: 'WorkspaceParticipant',
          attributes: {
            kind: 'organization',
            organizationId: partner.organizationId,
            lockVersion: body.data.attributes.lockVersion,
          },
        },
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const pair = await signIn(app, partner.loginId, partner.password);
    const page = await browser.openSignedIn({
      app,
      session: pair,
      path: '/organizations/workspaces',
      heading: wsJa.title,
    });
    const row = page.getByRole('row').filter({ hasText: '共有ワークスペース' });
    await row.getByRole('cell', { name: '株式会社発注元', exact: true }).waitFor();
    await row.getByRole('link', { name: '共有ワークスペース', exact: true }).click();
    await heading(page, '共有ワークスペース');
    await page.getByText(wsJa.detail.readOnly, exact).waitFor();
    expect(await page.getByRole('button', { name: wsJa.detail.delete, exact: true }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: wsJa.addPartner.title, exact: true }).count()).toBe(0);
  });

  it('keeps the business flow and workspace lists usable on a 360 px screen', async () => {
    const { org, token, page } = await owner('/organizations/business-flows', flowsJa.title, MOBILE);
    const workspaceId = await createWorkspace(token, org.organizationId, 'モバイル確認用');
    await app.api.call('createBusinessFlow', {
      token,
      params: { workspaceId },
      body: { data: { type: 'BusinessFlow', attributes: { name: '狭い画面の業務フロー' } } },
    });
    await page.reload();
    await page.getByRole('link', { name: '狭い画面の業務フロー', exact: true }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'business-flows-mobile');

    await page.getByRole('button', { name: common.nav.openMenu, exact: true }).click();
    await page
      .getByRole('navigation', { name: common.nav.label })
      .getByRole('link', { name: common.nav.workspaces })
      .click();
    await heading(page, wsJa.title);
    await page.getByRole('link', { name: 'モバイル確認用', exact: true }).waitFor();
    const listOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(listOverflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'workspaces-mobile');
  });
});
