/**
 * A form's submit button (showing `sendingLabel` and disabled while the request runs) and, with `onCancel`, its
 * cancel button.
 */
export function FormActions(props: {
  pending: boolean;
  submitLabel: string;
  sendingLabel: string;
  cancelLabel?: string;
  onCancel?: () => void;
}) {
  return (
    <div className="form-actions">
      <button type="submit" className="button primary" disabled={props.pending}>
        {props.pending ? props.sendingLabel : props.submitLabel}
      </button>
      {props.onCancel && (
        <button type="button" className="button" onClick={props.onCancel}>
          {props.cancelLabel}
        </button>
      )}
    </div>
  );
}
