import type { SelectHTMLAttributes } from 'react';

/** A labelled select with an optional hint, wired like FormField (the hint is read with the control). */
export function SelectField({
  id,
  label,
  hint,
  options,
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  id: string;
  label: string;
  hint?: string;
  options: { value: string | number; label: string }[];
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      <select id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
