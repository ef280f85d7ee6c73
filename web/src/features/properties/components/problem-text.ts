import { useTranslation } from 'react-i18next';
import type { FieldProblem } from '../form-state.ts';

/** The message of a field problem: the server's rendering when it sent one, else errors.json with the params. */
export function useProblemText(): (problem: FieldProblem) => string {
  const { t, i18n } = useTranslation(['properties', 'errors']);
  return (problem) => problem.messages?.[i18n.language as 'ja' | 'en'] ?? t(`errors:${problem.code}`, problem.params);
}

/** The id of the control a problem's attribute path belongs to (`options/2/label` -> `p-options-2-label`). */
export const controlId = (prefix: string, path: string) => `${prefix}-${path.replace(/\//g, '-')}`;
