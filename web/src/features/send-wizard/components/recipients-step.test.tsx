import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../i18n/index.ts';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import type { Draft } from '../wizard-draft.ts';
import { RecipientsStep } from './recipients-step.tsx';

const WORKSPACE_ID = '00000000-0000-4000-8000-0000000000e1';
const GROUP = { id: '00000000-0000-4000-8000-0000000000b1', name: '営業部' };

beforeAll(async () => {
  registerCatalogue('sendWizard', { ja, en });
  await initI18n('ja');
});
afterEach(() => {
  cleanup();
  onlineManager.setOnline(true);
});

const draft: Draft = {
  flowId: '00000000-0000-4000-8000-0000000000f1',
  name: '業務委託契約書',
  workspaceId: WORKSPACE_ID,
  workspaceName: '取引先との契約',
  lockVersion: 1,
  documents: [],
  recipients: [],
  fields: {},
};

/**
 * The step with the groups, roles and signature types already answered and the workspace still on its way (the
 * client is offline, so its query waits without fetching).
 */
async function renderWaitingForWorkspace() {
  onlineManager.setOnline(false);
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(['groups', 'wizard'], [GROUP]);
  client.setQueryData(['roles', 'wizard'], []);
  client.setQueryData(['signature-types', 'wizard'], []);
  const rootRoute = createRootRoute({
    component: () => (
      <QueryClientProvider client={client}>
        <div data-testid="slot">
          <RecipientsStep draft={draft} onChange={() => {}} onBack={() => {}} onSaved={() => {}} />
        </div>
      </QueryClientProvider>
    ),
  });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ['/'] }) });
  render(<RouterProvider router={router} />);
  await screen.findByTestId('slot');
  return client;
}

describe('the recipients step', () => {
  it('lets a group or a partner be added only once the workspace has loaded (adding one changes it)', async () => {
    const client = await renderWaitingForWorkspace();
    const addGroup = screen.getByRole('button', { name: ja.recipients.addGroup });
    const addPartner = screen.getByRole('button', { name: ja.recipients.addPartner });
    expect(screen.getByRole('combobox', { name: ja.recipients.group })).toHaveProperty('value', GROUP.id);
    expect(addGroup).toHaveProperty('disabled', true);
    expect(addPartner).toHaveProperty('disabled', true);

    client.setQueryData(['workspaces', 'detail', WORKSPACE_ID], {
      type: 'Workspace',
      id: WORKSPACE_ID,
      attributes: { lockVersion: 3, participants: [] },
    });
    await expect.poll(() => (addGroup as HTMLButtonElement).disabled).toBe(false);
  });
});
