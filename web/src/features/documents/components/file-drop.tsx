import { type DragEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Bytes as the user reads them (KB / MB, one decimal). */
export function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A PDF file chooser that also takes a file dropped on it. The native input stays the accessible control (its
 * label names it); the drop zone around it is a convenience for pointer users.
 */
export function FileDrop(props: {
  label: string;
  hint: string;
  errors: string[];
  file: File | null;
  onFile: (file: File | null) => void;
}) {
  const { t } = useTranslation('documents');
  const id = useId();
  const [over, setOver] = useState(false);
  const describedBy = [`${id}-hint`, props.errors.length > 0 ? `${id}-error` : null].filter(Boolean).join(' ');
  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) props.onFile(file);
  };
  return (
    <div
      className={over ? 'field file-drop over' : 'field file-drop'}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <label htmlFor={id}>{props.label}</label>
      <p id={`${id}-hint`} className="hint">
        {props.hint}
      </p>
      <p className="file-drop-zone" aria-hidden="true">
        {t('upload.dropZone')}
      </p>
      <input
        id={id}
        type="file"
        accept="application/pdf,.pdf"
        aria-describedby={describedBy}
        aria-invalid={props.errors.length > 0 || undefined}
        onChange={(event) => props.onFile(event.target.files?.[0] ?? null)}
      />
      {props.file && (
        <p className="muted" aria-live="polite">
          {t('upload.selected', { name: props.file.name, size: formatSize(props.file.size) })}
        </p>
      )}
      {props.errors.length > 0 && (
        <div id={`${id}-error`} className="field-error">
          {props.errors.map((error) => (
            <p key={error}>{error}</p>
          ))}
        </div>
      )}
    </div>
  );
}
