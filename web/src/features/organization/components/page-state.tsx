import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { useSlowLoading } from '../../../api/query.ts';

/** The loading line of a settings screen, with the slow-loading notice after 3 s (5 s on slow connections). */
export function Loading({ pending }: { pending: boolean }) {
  const { t } = useTranslation('organization');
  const slow = useSlowLoading(pending);
  if (!pending) return null;
  return (
    <div role="status">
      <p className="muted">{t('loading')}</p>
      {slow && <p className="notice">{t('slow')}</p>}
    </div>
  );
}

/** Refusals that belong on the route's error page rather than in the screen (403 by IP). */
export const throwToBoundary = (error: unknown) => error instanceof ApiError && error.code === 'IP_RESTRICTED';

/** Field errors of a 422, keyed by attribute name. */
export function fieldErrorsOf(error: unknown): Record<string, string[]> {
  return error instanceof ApiError ? error.fieldErrors() : {};
}
