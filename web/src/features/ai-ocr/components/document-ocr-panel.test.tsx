import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import jaErrors from '../../../i18n/ja/errors.json';
import { initI18n } from '../../../i18n/index.ts';
import { api } from '../../../session/session.ts';
import { documentPropertiesQueryOptions } from '../api/document-properties.ts';
import { documentOcrQueryOptions, type OcrProposal, type OcrReading } from '../api/document-ocr.ts';
import ja from '../i18n/ja.json';
import { DocumentOcrPanel } from './document-ocr-panel.tsx';

const DOCUMENT_ID = '00000000-0000-4000-8000-0000000000d1';
const AMOUNT = '00000000-0000-4000-8000-0000000000a1';
const DATE = '00000000-0000-4000-8000-0000000000a2';

beforeAll(async () => {
  await initI18n('ja');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function proposal(extra: Partial<OcrProposal>): OcrProposal {
  return {
    id: '00000000-0000-4000-8000-0000000000b1',
    propertyId: AMOUNT,
    propertyName: '契約金額',
    inputType: 10,
    rect: { page: 1, x: 300, y: 200, width: 150, height: 20 },
    raw: '金1,100,000円（税込）',
    value: '1100000',
    label: null,
    source: 'text',
    confidence: 0.98,
    note: 'taxIncluded',
    status: 'proposed',
    decidedAt: null,
    ...extra,
  };
}

function reading(
  status: OcrReading['attributes']['status'],
  extra: Partial<OcrReading['attributes']> = {},
): OcrReading {
  return {
    type: 'OcrReading',
    id: '00000000-0000-4000-8000-0000000000c1',
    attributes: {
      status,
      version: 1,
      documentTemplateId: null,
      progress: { pagesDone: 1, pagesTotal: 3 },
      pages: 3,
      error: null,
      proposals: [],
      createdAt: '2026-11-28T10:00:00Z',
      finishedAt: null,
      ...extra,
    },
  };
}

const yenAmount = {
  type: 'Property',
  id: AMOUNT,
  attributes: { name: '契約金額', inputType: 10, numberUnit: 20, options: [] },
};

/** The panel with GET /me, the reading and the properties answered (the page preview's file never arrives). */
function renderPanel(features: string[], answer: OcrReading, canEdit = true) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(['me'], { attributes: { isAdmin: false, organization: { features } } });
  client.setQueryData(documentOcrQueryOptions(DOCUMENT_ID).queryKey, answer);
  client.setQueryData(documentPropertiesQueryOptions().queryKey, [yenAmount] as never);
  vi.spyOn(api, 'GET').mockReturnValue(new Promise(() => {}));
  const view = render(
    <QueryClientProvider client={client}>
      <div data-testid="slot">
        <DocumentOcrPanel
          documentId={DOCUMENT_ID}
          title="業務委託契約書"
          canEdit={canEdit}
          ownerSide
          version={{ version: 1, scanStatus: 'clean', uploadedAt: '2026-11-28T09:00:00Z' }}
        />
      </div>
    </QueryClientProvider>,
  );
  return { client, view };
}

describe('the document AI-OCR panel', () => {
  it('is not shown without the aiOcr feature', () => {
    renderPanel(['box'], reading('none'));
    expect(screen.getByTestId('slot').innerHTML).toBe('');
  });

  it('shows a reading in progress with pages done of pages total, and no reading button meanwhile', () => {
    renderPanel(['aiOcr'], reading('reading'));
    expect(screen.getByText(ja.statuses.reading)).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: ja.panel.progress }) as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([1, 3]);
    expect(screen.getByText('1／3ページ')).toBeTruthy();
    expect(screen.queryByRole('button', { name: ja.panel.start })).toBeNull();
  });

  it('says why a reading failed or was skipped, and offers reading again to editors', () => {
    renderPanel(['aiOcr'], reading('failed', { error: { code: 'OCR_PDF_UNREADABLE' } }));
    expect(screen.getByTestId('ocr-error').textContent).toBe(jaErrors.OCR_PDF_UNREADABLE);
    expect(screen.getByRole('button', { name: ja.panel.start })).toBeTruthy();
    cleanup();
    renderPanel(['aiOcr'], reading('skipped', { error: { code: 'OCR_ALLOWANCE_EXCEEDED' } }), false);
    expect(screen.getByTestId('ocr-error').textContent).toBe(jaErrors.OCR_ALLOWANCE_EXCEEDED);
    expect(screen.queryByRole('button', { name: ja.panel.start })).toBeNull();
  });

  it('lists proposals formatted (yen amount with its tax note, a date in words) with source and confidence', () => {
    const date = proposal({
      id: '00000000-0000-4000-8000-0000000000b2',
      propertyId: DATE,
      propertyName: '契約日',
      inputType: 30,
      raw: '令和8年4月1日',
      value: '2026-04-01',
      source: 'ocr',
      confidence: 0.874,
      note: null,
    });
    renderPanel(['aiOcr'], reading('done', { proposals: [proposal({}), date] }));
    const [amountRow, dateRow] = screen.getAllByTestId('ocr-proposal');
    expect(within(amountRow!).getByText('1,100,000円').closest('dd')?.textContent).toBe('1,100,000円（税込）');
    expect(within(amountRow!).getByText('金1,100,000円（税込）')).toBeTruthy();
    expect(within(amountRow!).getByText(ja.sources.text)).toBeTruthy();
    expect(within(amountRow!).getByText('98%')).toBeTruthy();
    expect(within(dateRow!).getByText('2026年4月1日')).toBeTruthy();
    expect(within(dateRow!).getByText(ja.sources.ocr)).toBeTruthy();
    expect(within(dateRow!).getByText('87%')).toBeTruthy();
  });

  it('accepts one proposal, sends an edited value, and accepts all proposed values with a value at once', async () => {
    const unread = proposal({
      id: '00000000-0000-4000-8000-0000000000b3',
      propertyName: '取引先',
      inputType: 20,
      value: null,
      note: null,
    });
    const answer = reading('done', { proposals: [proposal({}), unread] });
    renderPanel(['aiOcr'], answer);
    const post = vi
      .spyOn(api, 'POST')
      .mockResolvedValue({ data: { data: answer }, response: new Response('{}') } as never);
    const [amountRow, unreadRow] = screen.getAllByTestId('ocr-proposal');
    // Nothing to accept as it is without a value: only editing.
    expect((within(unreadRow!).getByRole('button', { name: ja.panel.accept }) as HTMLButtonElement).disabled).toBe(
      true,
    );

    fireEvent.click(within(amountRow!).getByRole('button', { name: ja.panel.accept }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    expect(post.mock.calls[0]![1]).toMatchObject({
      body: { data: { attributes: { decisions: [{ proposalId: proposal({}).id, action: 'accept' }] } } },
    });

    fireEvent.click(within(unreadRow!).getByRole('button', { name: ja.panel.edit }));
    fireEvent.change(within(unreadRow!).getByRole('textbox', { name: '「取引先」の値' }), {
      target: { value: '株式会社サンプル' },
    });
    fireEvent.click(within(unreadRow!).getByRole('button', { name: ja.panel.accept }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    expect(post.mock.calls[1]![1]).toMatchObject({
      body: {
        data: { attributes: { decisions: [{ proposalId: unread.id, action: 'edit', value: '株式会社サンプル' }] } },
      },
    });

    fireEvent.click(screen.getByRole('button', { name: 'すべて確定（1件）' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(3));
    expect(post.mock.calls[2]![1]).toMatchObject({
      body: { data: { attributes: { decisions: [{ proposalId: proposal({}).id, action: 'accept' }] } } },
    });
  });
});
