import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ApiErrorNotice } from './api-error-notice.tsx';

/**
 * A modal form asking for a required reason (remand, cancel), with optional extra fields above it. An empty
 * reason is refused in the browser with the field's message; the server's refusal shows above the buttons.
 */
export function ReasonDialog(props: {
  open: boolean;
  title: string;
  reasonLabel: string;
  /** The field's message when the reason is left empty. */
  requiredText: string;
  /** The button that closes the dialog without doing anything. */
  cancelLabel: string;
  confirmLabel: string;
  danger?: boolean;
  children?: ReactNode;
  onConfirm: (reason: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      setReason('');
      setMissing(false);
      setFailure(null);
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setMissing(true);
      document.getElementById(reasonId)?.focus();
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      await props.onConfirm(reason.trim());
      props.onClose();
    } catch (error) {
      setFailure(error);
    } finally {
      setPending(false);
    }
  };

  return (
    <dialog
      ref={ref}
      className="confirm-dialog reason-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        <div className="field">
          <label htmlFor={reasonId}>{props.reasonLabel}</label>
          <textarea
            id={reasonId}
            rows={4}
            maxLength={1000}
            required
            value={reason}
            aria-invalid={missing || undefined}
            aria-describedby={missing ? `${reasonId}-error` : undefined}
            onChange={(event) => {
              setReason(event.target.value);
              setMissing(false);
            }}
          />
          {missing && (
            <div id={`${reasonId}-error`} className="field-error">
              <p>{props.requiredText}</p>
            </div>
          )}
        </div>
        <ApiErrorNotice error={failure} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={props.onClose}>
            {props.cancelLabel}
          </button>
          <button type="submit" className={props.danger ? 'button danger' : 'button primary'} disabled={pending}>
            {props.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
