import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import type { CorporateLookup } from '../api/lookup-corporate-number.ts';

/**
 * What the corporate number lookup found: the registered name and address (with a button to use them), "not
 * found", or that the lookup is unavailable or off — which never stops the number from being saved.
 */
export function CorporateLookupResult(props: {
  result: CorporateLookup | undefined;
  error: unknown;
  onUse: (found: { name: string; address: string }) => void;
}) {
  const { t } = useTranslation(['organization', 'errors']);
  const { result, error } = props;
  if (error) {
    const code = error instanceof ApiError ? error.code : 'UNKNOWN_ERROR';
    return (
      <p role="status" className="notice org-lookup">
        {code === 'CORPORATE_INFO_NOT_FOUND' ? t('errors:CORPORATE_INFO_NOT_FOUND') : t('info.lookupUnavailable')}
      </p>
    );
  }
  if (!result) return null;
  const a = result.attributes;
  if (a.status === 'found' && a.name !== null) {
    return (
      <div role="status" className="success org-lookup">
        <p>{t('info.lookupFound', { name: a.name, address: a.address ?? '' })}</p>
        <button
          type="button"
          className="button"
          onClick={() => props.onUse({ name: a.name!, address: a.address ?? '' })}
        >
          {t('info.useFound')}
        </button>
      </div>
    );
  }
  return (
    <p role="status" className="notice org-lookup">
      {t(a.status === 'disabled' ? 'info.lookupDisabled' : 'info.lookupUnavailable')}
    </p>
  );
}
