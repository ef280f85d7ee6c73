import { useTranslation } from 'react-i18next';
import type { DocumentProperty } from '../api/document-properties.ts';
import type { ReadingPosition } from '../api/template-sample.ts';
import { MIN_SIDE } from '../geometry.ts';
import { NumberInput } from './number-input.tsx';

/** The contract's largest offset and side (ReadingPosition: 5000 and 2000 points). */
const MAX_OFFSET = 5000;
const MAX_SIDE = 2000;
const COORDINATES = ['x', 'y', 'width', 'height'] as const;

/**
 * The reading positions as rows of fields: the property each reads, the hint, and page, x, y, width and height in
 * points for fine tuning and for keyboard users; a row can be drawn again on the page or removed.
 */
export function PositionList(props: {
  positions: ReadingPosition[];
  properties: DocumentProperty[];
  pages: number;
  selected: number | null;
  redrawing: number | null;
  onSelect: (index: number) => void;
  onChange: (index: number, patch: Partial<ReadingPosition>) => void;
  onRedraw: (index: number | null) => void;
  onRemove: (index: number) => void;
}) {
  const { t } = useTranslation('aiOcr');
  if (props.positions.length === 0) return <p className="muted">{t('editor.empty')}</p>;
  const choices = [
    { value: '', label: t('editor.chooseProperty') },
    ...props.properties.map((property) => ({ value: property.id, label: property.attributes.name ?? '' })),
  ];
  return (
    <div>
      <p className="hint">{t('editor.unitHint')}</p>
      <ol className="reading-list">
        {props.positions.map((position, index) => {
          const id = `reading-position-${index}`;
          const name = props.properties.find((p) => p.id === position.propertyId)?.attributes.name;
          const row = index + 1;
          return (
            <li
              key={index}
              className={props.selected === index ? 'reading-row selected' : 'reading-row'}
              onFocus={() => props.onSelect(index)}
            >
              <fieldset>
                <legend>{t('editor.rowTitle', { row, name: name ?? t('editor.noProperty') })}</legend>
                <div className="field">
                  <label htmlFor={`${id}-property`}>{t('editor.property')}</label>
                  <select
                    id={`${id}-property`}
                    value={position.propertyId}
                    onChange={(event) => props.onChange(index, { propertyId: event.target.value })}
                  >
                    {choices.map((choice) => (
                      <option key={choice.value} value={choice.value}>
                        {choice.label}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor={`${id}-hint`}>{t('editor.hint')}</label>
                  <input
                    id={`${id}-hint`}
                    type="text"
                    maxLength={100}
                    placeholder={t('editor.hintPlaceholder')}
                    value={position.hint ?? ''}
                    onChange={(event) => props.onChange(index, { hint: event.target.value || null })}
                  />
                </div>
                <div className="reading-numbers">
                  <NumberInput
                    id={`${id}-page`}
                    label={t('editor.page')}
                    value={position.page}
                    min={1}
                    max={Math.max(1, props.pages)}
                    step={1}
                    onChange={(page) => props.onChange(index, { page: Math.round(page) })}
                  />
                  {COORDINATES.map((key) => (
                    <NumberInput
                      key={key}
                      id={`${id}-${key}`}
                      label={t(`editor.${key}`)}
                      value={position[key]}
                      min={key === 'width' || key === 'height' ? MIN_SIDE : 0}
                      max={key === 'width' || key === 'height' ? MAX_SIDE : MAX_OFFSET}
                      step={0.1}
                      onChange={(value) => props.onChange(index, { [key]: value })}
                    />
                  ))}
                </div>
                <div className="row-actions">
                  <button
                    type="button"
                    className="button small"
                    aria-pressed={props.redrawing === index}
                    onClick={() => props.onRedraw(props.redrawing === index ? null : index)}
                  >
                    {props.redrawing === index ? t('editor.redrawCancel') : t('editor.redraw')}
                  </button>
                  <button
                    type="button"
                    className="button small danger"
                    aria-label={t('editor.removeLabel', { name: name ?? t('editor.rowLabel', { row }) })}
                    onClick={() => props.onRemove(index)}
                  >
                    {t('editor.remove')}
                  </button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
