import { useState } from 'react';
import { toast } from 'react-toastify';

/**
 * The state of an administration list with an inline form: which row is edited ('new' for the create form), which row
 * waits for its delete confirmation, and the last delete failure. `confirmDelete` deletes that row, says `doneText`
 * and closes the form if it was showing the deleted row.
 */
export function useEditAndDelete<Row extends { id: string }>(
  remove: (id: string) => Promise<unknown>,
  doneText: string,
) {
  const [editing, setEditing] = useState<'new' | string | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  const confirmDelete = async () => {
    if (!deleting) return;
    setFailure(null);
    try {
      await remove(deleting.id);
      toast.success(doneText);
      if (editing === deleting.id) setEditing(null);
    } catch (error) {
      setFailure(error);
    } finally {
      setDeleting(null);
    }
  };

  return { editing, setEditing, deleting, setDeleting, failure, confirmDelete };
}
