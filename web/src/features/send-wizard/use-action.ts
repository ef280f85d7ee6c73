import { useState } from 'react';

/** One user action's pending flag and its last failure, shown beside the button that started it. */
export function useAction() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    setPending(true);
    setError(null);
    try {
      return await work();
    } catch (caught) {
      setError(caught);
      return undefined;
    } finally {
      setPending(false);
    }
  };
  return { run, pending, error, clear: () => setError(null) };
}
