/*
 * Lists that can grow without bound stop counting: business flows (list and search), documents, tasks and
 * workspaces answer `meta.total` exactly up to LIST_COUNT_CAP (200) matches or the end of the page asked for, and beyond that a
 * lower bound with `meta.totalCapped: true`, so a next page is always known. Lists with a small maximum (groups)
 * count exactly, as their screens show "n of max".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_COUNT_CAP } from '../../core/http/pagination.ts';
import { firstGroupId, signedInOwner } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { seedWorkspace } from '../helpers/workspaces.ts';

const FLOWS = LIST_COUNT_CAP + 5;

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startApp();
  const owner = await signedInOwner(app);
  token = owner.token;
  const groupId = await firstGroupId(app, owner.organizationId);
  const workspaceId = await seedWorkspace(app, owner.organizationId, [{ groupId, isEditable: true }]);
  // Straight into the table: 205 flows through the API would take long and test nothing more here.
  const rows = Array.from({ length: FLOWS }, (_, i) => ({
    organization_id: owner.organizationId,
    workspace_id: workspaceId,
    name: `フロー${String(i).padStart(4, '0')}`,
    status: 'in_progress',
    created_by: owner.ownerId,
  }));
  await app.service.deps.knex.batchInsert('business_flows', rows, 500);
}, 120_000);
afterAll(() => app?.close());

const list = (query: Record<string, string | number>) => app.api.call('listBusinessFlows', { token, query });

describe('counts of lists that can grow without bound', () => {
  it('stop at the cap with totalCapped, and reach past the page asked for', async () => {
    const first = await list({ 'page[size]': 20 });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.meta).toEqual({
      total: LIST_COUNT_CAP,
      totalCapped: true,
      page: { number: 1, size: 20, next: expect.any(String) },
    });

    // The page ending at the cap: more exist, so it is still capped and the next page is known.
    const atCap = LIST_COUNT_CAP / 20;
    const capPage = await list({ 'page[size]': 20, 'page[number]': atCap });
    expect(capPage.body.data).toHaveLength(20);
    expect(capPage.body.meta).toMatchObject({ total: LIST_COUNT_CAP, totalCapped: true });

    // The page after counts up to its own end: the five left are counted exactly.
    const last = await list({ 'page[size]': 20, 'page[number]': atCap + 1 });
    expect(last.body.data).toHaveLength(FLOWS - LIST_COUNT_CAP);
    expect(last.body.meta).toMatchObject({ total: FLOWS, totalCapped: false });

    // No overlap and no gap between the pages either side of the cap.
    const ids = new Set<string>();
    for (let page = 1; page <= atCap + 1; page += 1) {
      const answer = page === 1 ? first : page === atCap ? capPage : page === atCap + 1 ? last : null;
      const body = answer?.body ?? (await list({ 'page[size]': 20, 'page[number]': page })).body;
      for (const flow of body.data as { id: string }[]) ids.add(flow.id);
    }
    expect(ids.size).toBe(FLOWS);
  }, 60_000);

  it('are exact below the cap and when a filter leaves few', async () => {
    const few = await list({ 'filter[q]': 'フロー000' });
    expect(few.body.meta).toMatchObject({ total: 10, totalCapped: false });
    const search = await app.api.call('searchBusinessFlows', {
      token,
      body: { filter: {} },
    });
    expect(search.status).toBe(200);
    expect(search.body.meta).toMatchObject({ total: LIST_COUNT_CAP, totalCapped: true });
  });

  it('stay exact on lists with a small maximum (groups)', async () => {
    const groups = await app.api.call('listGroups', { token });
    expect(groups.status).toBe(200);
    expect(groups.body.meta.totalCapped).toBeUndefined();
    expect(groups.body.meta.total).toBe(groups.body.data.length);
  });
});
