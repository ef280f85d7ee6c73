import { type ChangeEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors.ts';
import type { ErrorSummaryItem } from '../../components/error-summary.tsx';
import { hasProblems, PASSWORD_MIN, type Problem, type Problems } from './validation.ts';

/** The id and visible label of each field of a form, by request attribute name. */
export type FieldInfo<Name extends string = string> = Record<Name, { id: string; label: string }>;

/**
 * A 422's field errors (keyed by attribute name) as problems. The server sends no parameters with the codes; the
 * minimum length is the default policy's, which is the only one organizations have until policies are editable.
 */
export function serverProblems(error: ApiError): Problems {
  const problems: Problems = {};
  for (const [field, codes] of Object.entries(error.fieldErrors())) {
    problems[field] = codes.map((code) =>
      code === 'PASSWORD_TOO_SHORT' ? { code, params: { min: PASSWORD_MIN } } : { code },
    );
  }
  return problems;
}

/** The message of a problem: the precise rule when the client knows it, else the catalogue text of its code. */
export function useProblemText(): (problem: Problem) => string {
  const { t } = useTranslation(['auth', 'errors']);
  return (problem) =>
    problem.reason
      ? t(`auth:validation.${problem.reason}`, problem.params)
      : t(`errors:${problem.code}`, { min: PASSWORD_MIN, ...problem.params });
}

/**
 * The state every sign-in form shares: field problems (the client's before sending, the server's after), a message
 * about the whole request, and a counter of failed attempts that moves focus to the error summary. `field`,
 * `consent` and `errorSummary` are the props that tie a page's inputs, terms consent and ErrorSummary to it.
 */
export function useAuthForm<Name extends string>(fields: FieldInfo<Name>) {
  const { t } = useTranslation(['auth', 'errors']);
  const text = useProblemText();
  const [problems, setProblems] = useState<Problems>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  /** Shows the client's problems; true when there are none and the request may go. */
  const validate = (found: Problems): boolean => {
    setProblems(found);
    setAlert(null);
    if (!hasProblems(found)) return true;
    setAttempt((n) => n + 1);
    return false;
  };

  /** Shows what the server refused: field errors next to their fields, anything else in the alert. */
  const fail = (error: unknown): void => {
    const apiError = error instanceof ApiError ? error : null;
    const byField = apiError ? serverProblems(apiError) : {};
    const known = Object.fromEntries(Object.entries(byField).filter(([name]) => name in fields));
    const unplaced = Object.entries(byField).some(([name]) => !(name in fields));
    setProblems(known);
    setAlert(
      hasProblems(known) && !unplaced ? null : t(`errors:${apiError?.code ?? 'UNKNOWN_ERROR'}`, { min: PASSWORD_MIN }),
    );
    setAttempt((n) => n + 1);
  };

  /** Editing a field takes its (now possibly stale) problems away. */
  const touched = (name: Name): void => {
    if (!problems[name]) return;
    setProblems(({ [name]: _dropped, ...rest }) => rest);
  };

  const errorsOf = (name: Name): string[] => (problems[name] ?? []).map(text);

  const summary: ErrorSummaryItem[] = Object.entries(problems).flatMap(([name, list]) => {
    const field = (fields as FieldInfo)[name];
    return field
      ? list.map((problem) => ({
          fieldId: field.id,
          text: t('form.summaryItem', { label: field.label, message: text(problem) }),
        }))
      : [];
  });

  /** A required text input of `fields` (for FormField or AuthField): its id, label, value and problems. */
  const field = (name: Name, value: string, set: (value: string) => void) => ({
    id: fields[name].id,
    label: fields[name].label,
    name,
    value,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      set(event.target.value);
      touched(name);
    },
    errors: errorsOf(name),
    required: true,
  });

  /** The terms consent of `fields` (for TermsConsent): its checkbox id, state and problems. */
  const consent = (name: Name, agreed: boolean, set: (agreed: boolean) => void) => ({
    id: fields[name].id,
    agreed,
    onAgreedChange: (value: boolean) => {
      set(value);
      touched(name);
    },
    errors: errorsOf(name),
  });

  const errorSummary = { title: t('form.summaryTitle'), message: alert, items: summary, focusKey: attempt };

  return {
    problems,
    alert,
    attempt,
    validate,
    fail,
    touched,
    errorsOf,
    summary,
    setAlert,
    field,
    consent,
    errorSummary,
  };
}
