import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';

/** A confirmation that needs a reason (cancel): the confirm button refuses an empty reason with a field error. */
export function ReasonDialog(props: {
  open: boolean;
  idPrefix: string;
  title: string;
  body: string;
  label: string;
  requiredText: string;
  confirmLabel: string;
  pending: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const id = `${props.idPrefix}-reason`;
  const confirm = () => {
    if (reason.trim() === '') {
      setMissing(true);
      document.getElementById(id)?.focus();
      return;
    }
    props.onConfirm(reason.trim());
  };
  return (
    <ConfirmDialog
      open={props.open}
      title={props.title}
      confirmLabel={props.confirmLabel}
      danger
      pending={props.pending}
      onConfirm={confirm}
      onCancel={() => {
        setMissing(false);
        props.onCancel();
      }}
    >
      <p>{props.body}</p>
      <div className="field">
        <label htmlFor={id}>{props.label}</label>
        <textarea
          id={id}
          rows={3}
          maxLength={1000}
          required
          value={reason}
          aria-invalid={missing ? true : undefined}
          aria-describedby={missing ? `${id}-error` : undefined}
          onChange={(event) => {
            setReason(event.target.value);
            setMissing(false);
          }}
        />
        {missing && (
          <p id={`${id}-error`} className="field-error">
            {props.requiredText}
          </p>
        )}
      </div>
    </ConfirmDialog>
  );
}
