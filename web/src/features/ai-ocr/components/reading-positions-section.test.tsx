import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../i18n/index.ts';
import { documentPropertiesQueryOptions } from '../api/document-properties.ts';
import type { ReadingPosition } from '../api/template-sample.ts';
import ja from '../i18n/ja.json';
import { ReadingPositionsSection, type ReadingPositionsProps } from './reading-positions-section.tsx';

const AMOUNT = '00000000-0000-4000-8000-0000000000a1';
const DATE = '00000000-0000-4000-8000-0000000000a2';
const property = (id: string, name: string) => ({ type: 'Property', id, attributes: { name, options: [] } });

beforeAll(async () => {
  await initI18n('ja');
});
afterEach(cleanup);

/** The section with GET /me and the document-scope properties answered; no sample is stored. */
function renderSection(features: string[], value: ReadingPosition[], extra: Partial<ReadingPositionsProps> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(['me'], { attributes: { isAdmin: true, organization: { features } } });
  client.setQueryData(documentPropertiesQueryOptions().queryKey, [
    property(AMOUNT, '契約金額'),
    property(DATE, '契約日'),
  ] as never);
  const onChange = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <ReadingPositionsSection
        templateId="00000000-0000-4000-8000-0000000000e1"
        sample={null}
        value={value}
        onChange={onChange}
        onSampleStored={() => {}}
        errors={[]}
        {...extra}
      />
    </QueryClientProvider>,
  );
  return onChange;
}

const amountAt = { propertyId: AMOUNT, page: 1, x: 300, y: 200, width: 150, height: 20, hint: null };

describe('the reading-position editor', () => {
  it('tells an organization without AI-OCR that reading needs the option, and shows nothing to draw on yet', () => {
    renderSection(['templates'], []);
    expect(screen.getByText(ja.editor.optionRequired)).toBeTruthy();
    expect(screen.getByText(ja.editor.empty)).toBeTruthy();
    expect(screen.getByLabelText(ja.editor.uploadSample)).toBeTruthy();
    cleanup();
    renderSection(['aiOcr'], []);
    expect(screen.queryByText(ja.editor.optionRequired)).toBeNull();
  });

  it('asks to create the template before a sample can be uploaded', () => {
    renderSection(['aiOcr'], [], { templateId: null });
    expect(screen.getByText(ja.editor.saveFirst)).toBeTruthy();
    expect(screen.queryByLabelText(ja.editor.uploadSample)).toBeNull();
  });

  it('edits a position as fields: the property, the hint and its place in points', () => {
    const onChange = renderSection(['aiOcr'], [amountAt]);
    expect(screen.getByRole('group', { name: '1．契約金額' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(ja.editor.x), { target: { value: '310.5' } });
    expect(onChange).toHaveBeenLastCalledWith([{ ...amountAt, x: 310.5 }]);
    fireEvent.change(screen.getByLabelText(ja.editor.width), { target: { value: '1' } });
    expect(onChange).toHaveBeenLastCalledWith([{ ...amountAt, width: 2 }]);
    fireEvent.change(screen.getByLabelText(ja.editor.property), { target: { value: DATE } });
    expect(onChange).toHaveBeenLastCalledWith([{ ...amountAt, propertyId: DATE }]);
    fireEvent.change(screen.getByLabelText(ja.editor.hint), { target: { value: '令和8年4月1日' } });
    expect(onChange).toHaveBeenLastCalledWith([{ ...amountAt, hint: '令和8年4月1日' }]);
  });

  it('removes a position and shows the form’s problems', () => {
    const onChange = renderSection(['aiOcr'], [amountAt], { errors: ['2行目：重複しています。'] });
    fireEvent.click(screen.getByRole('button', { name: '「契約金額」の読み取り位置を削除' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
    expect(screen.getByRole('alert').textContent).toBe('2行目：重複しています。');
  });
});
