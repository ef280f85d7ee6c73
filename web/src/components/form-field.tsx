import type { InputHTMLAttributes, ReactNode } from 'react';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'children' | 'aria-invalid' | 'aria-describedby'>;

/** The ids a field's hint and error get, so a summary or another element can point at them. */
const hintIdOf = (id: string) => `${id}-hint`;
const errorIdOf = (id: string) => `${id}-error`;

function describedBy(id: string, hint: ReactNode, errors: readonly string[]): string | undefined {
  const ids = [hint ? hintIdOf(id) : null, errors.length > 0 ? errorIdOf(id) : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

function FieldErrors({ id, errors }: { id: string; errors: readonly string[] }) {
  if (errors.length === 0) return null;
  return (
    <div id={errorIdOf(id)} className="field-error">
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}

export interface FormFieldProps extends InputProps {
  /** The input's id; the hint and error ids derive from it. */
  id: string;
  label: string;
  hint?: ReactNode;
  /** Messages shown under the input; any message marks the input invalid. */
  errors?: readonly string[];
}

/**
 * A labelled input with an optional hint and its error messages, wired for assistive technology: the label names
 * the input, `aria-describedby` reads the hint and the errors, `aria-invalid` flags a field with errors. Pass the
 * `autoComplete` token that fits (username, current-password, new-password, email, organization, name).
 */
export function FormField({ id, label, hint, errors = [], className, ...input }: FormFieldProps) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={hintIdOf(id)} className="hint">
          {hint}
        </p>
      )}
      <input
        id={id}
        aria-invalid={errors.length > 0 ? true : undefined}
        aria-describedby={describedBy(id, hint, errors)}
        {...input}
      />
      <FieldErrors id={id} errors={errors} />
    </div>
  );
}

export interface CheckboxFieldProps extends Omit<InputProps, 'type'> {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: readonly string[];
}

/** A checkbox with its label after it, and the same hint and error wiring as FormField. */
export function CheckboxField({ id, label, hint, errors = [], className, ...input }: CheckboxFieldProps) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <div className="checkbox">
        <input
          id={id}
          type="checkbox"
          aria-invalid={errors.length > 0 ? true : undefined}
          aria-describedby={describedBy(id, hint, errors)}
          {...input}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {hint && (
        <p id={hintIdOf(id)} className="hint">
          {hint}
        </p>
      )}
      <FieldErrors id={id} errors={errors} />
    </div>
  );
}
