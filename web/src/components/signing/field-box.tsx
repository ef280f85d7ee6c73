import { useTranslation } from 'react-i18next';
import { fillingOf, type SignerField } from './fields.ts';
import { type PageMapping, type Placement, toScreenBox } from './placement.ts';
import { PlacementContent } from './placement-content.tsx';

/** A field's name as the signer reads it: the sender's label, or the kind of the field. */
export function useFieldName() {
  const { t } = useTranslation('signing');
  return (field: SignerField) => field.label ?? t(`fields.kinds.${field.kind}`);
}

/** A field's accessible name: its name, page and whether it is required and filled. */
function useFieldDescription() {
  const { t } = useTranslation('signing');
  const name = useFieldName();
  return (field: SignerField, filled: boolean) =>
    t('fields.boxName', {
      name: name(field),
      kind: t(`fields.kinds.${field.kind}`),
      page: field.page,
      state: t(filled ? 'fields.filled' : field.required ? 'fields.requiredEmpty' : 'fields.optionalEmpty'),
    });
}

/**
 * A field the sender placed, drawn where it sits on the page: a dashed box with its label, kind and "required" while
 * empty, its content once filled. It cannot be moved; pressing it opens what fills it.
 */
export function FieldBox(props: {
  field: SignerField;
  mapping: PageMapping;
  filling: Placement | undefined;
  onOpen: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation('signing');
  const name = useFieldName();
  const describe = useFieldDescription();
  const { field, filling } = props;
  const box = toScreenBox(field.rect, props.mapping);
  const description = describe(field, Boolean(filling));
  return (
    <div
      className={`field-box${filling ? ' field-filled' : ''}${field.required ? ' field-required' : ''}`}
      data-field={field.id}
      data-field-kind={field.kind}
      data-filled={filling ? 'true' : 'false'}
      style={{ left: box.left, top: box.top, width: box.width, height: box.height }}
    >
      <button type="button" className="field-box-button" aria-label={description} onClick={props.onOpen}>
        {filling ? (
          <span className="placement-content" aria-hidden="true">
            <PlacementContent placement={filling} height={box.height} />
          </span>
        ) : (
          <span className="field-box-text" aria-hidden="true">
            <span className="field-box-name">{name(field)}</span>
            <span className="field-box-kind">
              {field.label ? `${t(`fields.kinds.${field.kind}`)}・` : ''}
              {t(field.required ? 'fields.required' : 'fields.optional')}
            </span>
          </span>
        )}
      </button>
      {filling && (
        <button
          type="button"
          className="placement-remove"
          aria-label={t('fields.clearLabel', { name: name(field) })}
          onClick={props.onClear}
        >
          ×
        </button>
      )}
    </div>
  );
}

/** The fields of the signer, each with its page and state; pressing one shows its page and opens what fills it. */
export function FieldList(props: {
  fields: SignerField[];
  placements: Placement[];
  onOpen: (field: SignerField) => void;
}) {
  const { t } = useTranslation('signing');
  const name = useFieldName();
  const describe = useFieldDescription();
  return (
    <section aria-labelledby="field-list-title" className="placed-list field-list">
      <h3 id="field-list-title">{t('fields.listTitle')}</h3>
      <p className="hint">{t('fields.listHint')}</p>
      <ul className="plain-list">
        {props.fields.map((field) => {
          const filled = Boolean(fillingOf(props.placements, field.id));
          return (
            <li key={field.id}>
              <button
                type="button"
                className="button small"
                aria-label={describe(field, filled)}
                onClick={() => props.onOpen(field)}
              >
                {t('fields.listItem', { name: name(field), page: field.page })}
              </button>
              <span className={filled ? 'badge badge-ok' : field.required ? 'badge badge-warn' : 'badge badge-muted'}>
                {t(filled ? 'fields.filled' : field.required ? 'fields.requiredEmpty' : 'fields.optionalEmpty')}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Why the sign button waits: the required fields still empty, by name and page. */
export function MissingFieldsNotice({ id, missing }: { id: string; missing: SignerField[] }) {
  const { t } = useTranslation('signing');
  const name = useFieldName();
  if (missing.length === 0) return null;
  return (
    <div id={id} role="status" className="notice missing-fields">
      <p>{t('fields.missingTitle')}</p>
      <ul>
        {missing.map((field) => (
          <li key={field.id}>{t('fields.listItem', { name: name(field), page: field.page })}</li>
        ))}
      </ul>
    </div>
  );
}
