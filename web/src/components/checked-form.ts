import { type FormEvent, useState } from 'react';
import { ApiError } from '../api/errors.ts';

/** Problems by field name, as a feature's validation module lists them. */
type ProblemsByField = Partial<Record<string, unknown[]>>;

/**
 * The state of a form checked in the browser before it is sent. `submit` validates (focusing the first field with a
 * problem), sends, and on a refusal places the problems it can next to their fields; any other failure is kept in
 * `failure` for the notice above the form.
 */
export function useCheckedForm<I extends object, P extends ProblemsByField>(options: {
  initial: I;
  validate: (input: I) => P;
  serverProblems: (errors: ApiError['errors']) => P;
  /** The id of a field's control, which takes focus when the field has the first problem. */
  fieldId: (name: string) => string;
  onSubmit: (input: I) => Promise<unknown>;
}) {
  const [input, setInput] = useState(options.initial);
  const [problems, setProblems] = useState<P>({} as P);
  const [failure, setFailure] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = options.validate(input);
    setProblems(found);
    setFailure(null);
    if (Object.keys(found).length > 0) {
      document.getElementById(options.fieldId(Object.keys(found)[0]!))?.focus();
      return;
    }
    setPending(true);
    try {
      await options.onSubmit(input);
    } catch (error) {
      const placed = error instanceof ApiError ? options.serverProblems(error.errors) : ({} as P);
      setProblems(placed);
      if (Object.keys(placed).length === 0) setFailure(error);
    } finally {
      setPending(false);
    }
  };

  /** Sets a text field from its control and drops the field's problems. */
  const changeText = (name: keyof I & keyof P & string) => (event: { target: { value: string } }) => {
    setInput((previous) => ({ ...previous, [name]: event.target.value }));
    setProblems(({ [name]: _dropped, ...rest }) => rest as P);
  };

  return { input, setInput, problems, failure, pending, submit, changeText };
}
