import { chmodSync, mkdirSync } from 'node:fs';

/** Owner-only permissions for the folders that hold data: the data folder, pgdata, blobs, the mail outbox. */
export const PRIVATE_FOLDER_MODE = 0o700;

/** Owner-only permissions for files that hold a message or a key. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates the folder (and missing parents) readable by the owner only, and narrows an existing one to that.
 * The mode is set with chmod as well, so the umask (which may leave group/other bits) does not decide it.
 */
export function ensurePrivateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  chmodSync(folder, PRIVATE_FOLDER_MODE);
}
