import { useTranslation } from 'react-i18next';
import type { Problem } from '../validation.ts';

/** The message of a form problem: the feature's own wording for browser checks, else the error catalogue's. */
export function useProblemText() {
  const { t } = useTranslation(['templates', 'errors']);
  return (problem: Problem) => {
    const message = problem.reason
      ? t(`templates:validation.${problem.reason}`, problem.params)
      : t(`errors:${problem.code}`, problem.params);
    return problem.row === undefined ? message : t('templates:validation.row', { row: problem.row + 1, message });
  };
}
