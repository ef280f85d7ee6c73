import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type BoxUpload,
  type BoxUploadList,
  type BoxUploadStatus,
  useConnectionFollowsUploads,
} from './box-uploads.ts';

afterEach(cleanup);

const CONNECTED_AT = '2026-11-28T09:00:00.000Z';

function upload(status: BoxUploadStatus, updatedAt: string, errorCode: BoxUpload['attributes']['errorCode'] = null) {
  return {
    type: 'BoxUpload',
    id: '00000000-0000-4000-8000-0000000000a1',
    attributes: {
      documentId: '00000000-0000-4000-8000-0000000000d1',
      documentName: '業務委託契約書',
      businessFlowId: '00000000-0000-4000-8000-0000000000f1',
      status,
      errorCode,
      attempts: 1,
      boxFolderId: null,
      boxFileIds: { document: null, certificate: null },
      trigger: 'completion',
      updatedAt,
      uploadedAt: null,
    },
  } satisfies BoxUpload;
}

const list = (...uploads: BoxUpload[]): BoxUploadList => ({
  data: uploads,
  meta: { total: uploads.length, page: { number: 1, size: 20 } },
});

/** The hook over a client whose invalidations of the connection are counted. */
function follow(first: BoxUploadList, connection = { status: 'connected', connectedAt: CONNECTED_AT }) {
  const client = new QueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(({ uploads, card }) => useConnectionFollowsUploads(uploads, card), {
    wrapper,
    initialProps: { uploads: first, card: connection },
  });
  const asked = () => invalidate.mock.calls.filter(([filters]) => filters?.queryKey?.[0] === 'box-connection').length;
  return { hook, asked };
}

describe('the connection card following the uploads list', () => {
  it('asks for the connection again when an upload it watched settles, not when nothing changed', () => {
    const { hook, asked } = follow(list(upload('uploading', '2026-11-28T10:00:00.000Z')));
    expect(asked()).toBe(0);
    hook.rerender({
      uploads: list(upload('uploading', '2026-11-28T10:00:03.000Z')),
      card: { status: 'connected', connectedAt: CONNECTED_AT },
    });
    expect(asked()).toBe(0);
    hook.rerender({
      uploads: list(upload('done', '2026-11-28T10:00:06.000Z')),
      card: { status: 'connected', connectedAt: CONNECTED_AT },
    });
    expect(asked()).toBe(1);
  });

  it('asks once when the list shows an authorization failure newer than a connection that says connected', () => {
    const failed = list(upload('failed', '2026-11-28T10:00:00.000Z', 'BOX_AUTH_FAILED'));
    const { hook, asked } = follow(failed);
    expect(asked()).toBe(1);
    // The answer still says connected (a failure of a replaced connection): it is not asked in a loop.
    hook.rerender({ uploads: { ...failed }, card: { status: 'connected', connectedAt: CONNECTED_AT } });
    expect(asked()).toBe(1);
  });

  it('leaves alone failures from before the connection was made, and a connection already marked', () => {
    const old = list(upload('failed', '2026-11-28T08:00:00.000Z', 'BOX_AUTH_FAILED'));
    expect(follow(old).asked()).toBe(0);
    const recent = list(upload('failed', '2026-11-28T10:00:00.000Z', 'BOX_AUTH_FAILED'));
    expect(follow(recent, { status: 'auth_failed', connectedAt: CONNECTED_AT }).asked()).toBe(0);
    const unavailable = list(upload('failed', '2026-11-28T10:00:00.000Z', 'BOX_UNAVAILABLE'));
    expect(follow(unavailable).asked()).toBe(0);
  });
});
