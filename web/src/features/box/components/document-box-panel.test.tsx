import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import jaErrors from '../../../i18n/ja/errors.json';
import { initI18n } from '../../../i18n/index.ts';
import type { BoxUpload } from '../api/box-uploads.ts';
import { documentBoxUploadQueryOptions } from '../api/box-uploads.ts';
import ja from '../i18n/ja.json';
import { DocumentBoxPanel } from './document-box-panel.tsx';

const DOCUMENT_ID = '00000000-0000-4000-8000-0000000000d1';

beforeAll(async () => {
  await initI18n('ja');
});
afterEach(cleanup);

function failedUpload(): BoxUpload {
  return {
    type: 'BoxUpload',
    id: '00000000-0000-4000-8000-0000000000a1',
    attributes: {
      documentId: DOCUMENT_ID,
      documentName: '業務委託契約書',
      businessFlowId: '00000000-0000-4000-8000-0000000000f1',
      status: 'failed',
      errorCode: 'BOX_AUTH_FAILED',
      attempts: 1,
      boxFolderId: null,
      boxFileIds: { document: null, certificate: null },
      trigger: 'completion',
      updatedAt: '2026-11-28T10:00:00Z',
      uploadedAt: null,
    },
  };
}

/** The panel with GET /me and the document's upload already answered (nothing is fetched). */
function renderPanel(me: { isAdmin: boolean; features: string[] }, upload: BoxUpload | null, completed = true) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(['me'], { attributes: { isAdmin: me.isAdmin, organization: { features: me.features } } });
  client.setQueryData(documentBoxUploadQueryOptions(DOCUMENT_ID).queryKey, upload);
  // The panel links to the settings screen: it renders inside a router.
  const rootRoute = createRootRoute({
    component: () => (
      <QueryClientProvider client={client}>
        <div data-testid="slot">
          <DocumentBoxPanel documentId={DOCUMENT_ID} completed={completed} />
        </div>
      </QueryClientProvider>
    ),
  });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ['/'] }) });
  render(<RouterProvider router={router} />);
  return screen.findByTestId('slot');
}

describe('the document Box panel', () => {
  it('is not shown without the box feature or before the document completes', async () => {
    expect((await renderPanel({ isAdmin: true, features: ['sso'] }, null)).innerHTML).toBe('');
    cleanup();
    expect((await renderPanel({ isAdmin: true, features: ['box'] }, null, false)).innerHTML).toBe('');
  });

  it('shows a failed upload with the spec’s authentication failure, and the manual send to administrators', async () => {
    await renderPanel({ isAdmin: true, features: ['box'] }, failedUpload());
    expect(screen.getByRole('alert').textContent).toBe(jaErrors.BOX_AUTH_FAILED);
    expect(screen.getByText(ja.statuses.failed)).toBeTruthy();
    expect(screen.getByRole('button', { name: ja.panel.send })).toBeTruthy();
  });

  it('tells a member the document was never sent, without the send button', async () => {
    await renderPanel({ isAdmin: false, features: ['box'] }, null);
    expect(screen.getByText(ja.panel.notSent)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
