import { type FormEvent, type RefObject, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors.ts';
import { useErrorText } from '../api-error-notice.tsx';
import { fieldOfPointer, type SignDraft, type SignField, signAttributes, signProblems } from './sign-request.ts';

export type SignFieldErrors = Partial<Record<SignField, string[]>>;

/**
 * Submitting a sign form, for members (signTask) and guests (signOneTimeTask) alike: the browser's checks of the
 * draft first, then `send`; a refusal's errors are placed at the fields their pointers name (or the whole refusal
 * shown as `failure` when none does), and the error summary takes the focus.
 */
export function useSignSubmit(
  send: (input: { taskId: string; attributes: ReturnType<typeof signAttributes> }) => Promise<unknown>,
  onSigned: () => void,
) {
  const { t } = useTranslation('signing');
  const errorText = useErrorText();
  const summary = useRef<HTMLDivElement>(null);
  const [errors, setErrors] = useState<SignFieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);

  const submit = async (event: FormEvent, taskId: string, draft: SignDraft, lockVersion: number) => {
    event.preventDefault();
    setFailure(null);
    const found: SignFieldErrors = {};
    for (const problem of signProblems(draft)) (found[problem.field] ??= []).push(t(`form.${problem.key}`));
    setErrors(found);
    if (Object.keys(found).length > 0) {
      summary.current?.focus();
      return;
    }
    try {
      await send({ taskId, attributes: signAttributes(draft, lockVersion) });
      onSigned();
    } catch (error) {
      const placed: SignFieldErrors = {};
      if (error instanceof ApiError) {
        for (const item of error.errors) {
          const field = fieldOfPointer(item.source?.pointer);
          if (field) (placed[field] ??= []).push(errorText(new ApiError(error.status, [item])));
        }
      }
      setErrors(placed);
      if (Object.keys(placed).length === 0) setFailure(error);
      else summary.current?.focus();
    }
  };
  const clear = (field: SignField) => setErrors({ ...errors, [field]: undefined });
  return { errors, clear, failure, summary, submit };
}

/** Every field error of a sign form in one list, announced and focusable (useSignSubmit focuses it). */
export function SignErrorSummary(props: { summary: RefObject<HTMLDivElement | null>; errors: SignFieldErrors }) {
  const { t } = useTranslation('signing');
  const listed = Object.values(props.errors).flatMap((messages) => messages ?? []);
  return (
    <div ref={props.summary} tabIndex={-1} role={listed.length > 0 ? 'alert' : undefined} className="task-summary">
      {listed.length > 0 && (
        <div className="form-error">
          <p>{t('form.summaryTitle')}</p>
          <ul>
            {listed.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
