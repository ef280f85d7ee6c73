import { ApiError } from '../api/errors.ts';
import { ApiErrorNotice } from './api-error-notice.tsx';

/**
 * How the fetch of a detail screen's resource stands: a loading line while it is pending, then a plain notice for 404
 * NOT_FOUND or the alert of any other failure.
 */
export function DetailStatus(props: {
  query: { isPending: boolean; error: unknown };
  loading: string;
  notFound: string;
}) {
  const { isPending, error } = props.query;
  return (
    <>
      {isPending && (
        <p role="status" className="muted">
          {props.loading}
        </p>
      )}
      {error instanceof ApiError && error.code === 'NOT_FOUND' ? (
        <p className="notice" role="status">
          {props.notFound}
        </p>
      ) : (
        <ApiErrorNotice error={error} />
      )}
    </>
  );
}
