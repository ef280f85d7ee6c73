import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

/**
 * One user action's pending flag and its last failure, shown beside the button that started it. Every wizard action
 * changes the draft (or sends or discards it), so a success marks the flow lists and the home screen's inbox stale:
 * a draft made and left within the 2 s the inbox stays fresh must still be listed there.
 */
export function useAction() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    setPending(true);
    setError(null);
    try {
      const result = await work();
      void queryClient.invalidateQueries({ queryKey: ['me', 'inbox'] });
      void queryClient.invalidateQueries({ queryKey: ['business-flows'] });
      return result;
    } catch (caught) {
      setError(caught);
      return undefined;
    } finally {
      setPending(false);
    }
  };
  return { run, pending, error, clear: () => setError(null) };
}
