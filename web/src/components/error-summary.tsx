import { useEffect, useRef } from 'react';

export interface ErrorSummaryItem {
  /** The id of the input the problem belongs to. */
  fieldId: string;
  text: string;
}

/**
 * The one alert region of a form: a message about the whole request (wrong credentials, a locked account) and/or a
 * list of field problems linking to their inputs. It takes focus each time `focusKey` changes, so a failed submit
 * is announced and the keyboard user lands on the list.
 */
export function ErrorSummary(props: {
  title: string;
  message?: string | null;
  items: ErrorSummaryItem[];
  focusKey: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const { message, items, focusKey } = props;
  const visible = Boolean(message) || items.length > 0;

  useEffect(() => {
    if (focusKey > 0 && visible) ref.current?.focus();
  }, [focusKey, visible]);

  if (!visible) return null;
  return (
    <div ref={ref} role="alert" className="form-error error-summary" tabIndex={-1}>
      {message && <p className="error-summary-message">{message}</p>}
      {items.length > 0 && (
        <>
          <p className="error-summary-title">{props.title}</p>
          <ul>
            {items.map((item) => (
              <li key={`${item.fieldId}:${item.text}`}>
                <a
                  href={`#${item.fieldId}`}
                  onClick={(event) => {
                    // Move focus to the input itself; the router should not see a hash change.
                    event.preventDefault();
                    document.getElementById(item.fieldId)?.focus();
                  }}
                >
                  {item.text}
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
