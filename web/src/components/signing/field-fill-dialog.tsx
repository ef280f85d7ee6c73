import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldName } from './field-box.tsx';
import type { FieldContent, SignerField } from './fields.ts';
import type { Placement } from './placement.ts';
import { type SealTool, TextTool } from './placement-tools.tsx';

/**
 * What fills a field, in a modal dialog: a seal (the screen's seal tool: registered images or an upload) for a seal
 * field, text lines for a text field, and for a signature field the choice of a seal or a handwritten signature (the
 * drawing itself is the handwriting dialog, opened by `onDraw`). A handwritten field goes straight to that dialog.
 */
export function FieldFillDialog(props: {
  field: SignerField | null;
  filling: Placement | undefined;
  sealTool: SealTool;
  onFill: (content: FieldContent) => void;
  onDraw: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('signing');
  const name = useFieldName();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { field } = props;
  const open = field !== null;
  const Seal = props.sealTool;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    }
    if (!open && element.open) element.close();
  }, [open]);

  const takesSeal = field?.kind === 'seal' || field?.kind === 'signature';
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog field-fill-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
    >
      {field && (
        <>
          <h2 id={titleId}>{t('fields.fillTitle', { name: name(field) })}</h2>
          <p className="hint">
            {t(`fields.fillHints.${field.kind}`, { page: field.page })}
            {field.required ? ` ${t('fields.requiredHint')}` : ''}
          </p>
          <div className="field-fill-tools">
            {takesSeal && (
              <Seal
                disabled={false}
                addLabel={t('fields.useSeal')}
                onAdd={(seal) => props.onFill({ kind: 'seal', ...seal })}
              />
            )}
            {field.kind === 'signature' && (
              <div className="placement-tool">
                <button type="button" className="button" onClick={props.onDraw}>
                  {t('placements.addHandwritten')}
                </button>
              </div>
            )}
            {field.kind === 'text' && (
              <TextTool
                key={field.id}
                disabled={false}
                initial={props.filling?.lines}
                legend={t('fields.kinds.text')}
                submitLabel={t('fields.useText')}
                onAdd={(lines) => props.onFill({ kind: 'text', lines })}
              />
            )}
          </div>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={props.onClose}>
              {t('handwriting.cancel')}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
