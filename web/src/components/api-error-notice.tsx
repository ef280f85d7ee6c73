import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, isGenericFailure, isPermissionsChanged } from '../api/errors.ts';
import { registerCatalogue } from '../i18n/lazy.ts';
import { DATA_LIST_TEXTS } from './data-list-texts.ts';

registerCatalogue('dataList', DATA_LIST_TEXTS);

/** The catalogue code of any failure (a network failure or a thrown non-API error reads as UNKNOWN_ERROR). */
export function errorCode(error: unknown): string {
  return error instanceof ApiError ? error.code : 'UNKNOWN_ERROR';
}

/**
 * The message of a failure by its code (errors.json). A message with placeholders (a limit, a count) takes the
 * caller's params, or else the server's own rendering of the same catalogue entry (`meta.messages`), which carries
 * the values the client does not know.
 */
export function useErrorText(): (error: unknown, params?: Record<string, unknown>, action?: string) => string {
  const { t, i18n } = useTranslation(['errors', 'common']);
  return (error, params, action) => {
    // A 5xx or network failure names no cause: the spec's "Failed to {action}. ..." with what the user tried.
    if (isGenericFailure(error)) {
      return t('common:failure.failedTo', { action: action ?? t('common:failure.actions.process') });
    }
    const code = errorCode(error);
    const template = i18n.getResource(i18n.language, 'errors', code) as string | undefined;
    if (!params && template?.includes('{{') && error instanceof ApiError) {
      const rendered = error.errors[0]?.meta?.messages?.[i18n.language as 'ja' | 'en'];
      if (rendered) return rendered;
    }
    return t(`errors:${code}`, params);
  };
}

/** True for the refusals that mean "what you see is stale": reloading is the way on. */
export function isStale(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'UPDATED_BY_ANOTHER_USER';
}

/** Reloads the whole page: after PERMISSIONS_CHANGED every screen, menu and cached answer may be stale. */
function reloadPage(): void {
  window.location.reload();
}

/**
 * An API refusal as an alert with its catalogue message (errors.json); a 5xx or network failure as "Failed to
 * {action}. ..." with the caller's `action`. For 409 UPDATED_BY_ANOTHER_USER it offers a reload action, which
 * should fetch the resource again and put its current values in the form; for 409 PERMISSIONS_CHANGED a reload of
 * the page. The alert takes
 * focus when it appears so it is announced.
 */
export function ApiErrorNotice(props: {
  error: unknown;
  onReload?: () => void;
  params?: Record<string, unknown>;
  /** What the user tried, for the generic failure message: a label of common:failure.actions, already translated. */
  action?: string;
}) {
  const { t } = useTranslation(['errors', 'dataList', 'common']);
  const text = useErrorText();
  const ref = useRef<HTMLDivElement>(null);
  const { error } = props;
  useEffect(() => {
    if (error) ref.current?.focus();
  }, [error]);
  if (!error) return null;
  return (
    <div ref={ref} role="alert" tabIndex={-1} className="form-error api-error-notice">
      <p>{text(error, props.params, props.action)}</p>
      {isStale(error) && props.onReload && (
        <button type="button" className="button" onClick={props.onReload}>
          {t('dataList:reload')}
        </button>
      )}
      {isPermissionsChanged(error) && (
        <button type="button" className="button" onClick={reloadPage}>
          {t('common:failure.reload')}
        </button>
      )}
    </div>
  );
}
