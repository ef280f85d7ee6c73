import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { registerCatalogue } from '../i18n/lazy.ts';
import { DATA_LIST_TEXTS } from './data-list-texts.ts';

registerCatalogue('dataList', DATA_LIST_TEXTS);

/**
 * A modal confirmation in a native <dialog>: open while `open` is true, Escape or Cancel calls `onCancel`. The
 * confirm button names the action ("Delete"), so a screen reader hears what will happen.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('dataList');
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={props.onCancel}>
          {t('cancel')}
        </button>
        <button
          type="button"
          className={props.danger ? 'button danger' : 'button primary'}
          disabled={props.pending}
          onClick={props.onConfirm}
        >
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
