import { type Config, ConfigError } from '../config.ts';
import { LocalBlobStore } from './blob-store.ts';
import type { SweepableStore } from './sweep-orphans.ts';

/**
 * The blob store the configuration names: the data folder, or an S3 bucket that must answer before the service
 * starts (a wrong bucket, endpoint or key stops the start with a configuration error instead of failing uploads).
 */
export async function openBlobStore(config: Config): Promise<SweepableStore> {
  if (config.blobStore.kind === 'local') return new LocalBlobStore(config.dataDir);
  // The AWS SDK loads only when blobs are in a bucket (~5 MB of heap an instance on the data folder does not need).
  const { S3BlobStore } = await import('./s3-blob-store.ts');
  const store = new S3BlobStore(config.blobStore);
  try {
    await store.check();
  } catch (error) {
    store.close();
    throw new ConfigError(`cannot reach the blob store ${store.describe()}: ${s3Failure(error)}`);
  }
  return store;
}

/** What went wrong with an S3 request, in words (a HEAD's error has no body, so the SDK's message may be empty). */
export function s3Failure(error: unknown): string {
  const { name, message, $metadata } = error as Error & { $metadata?: { httpStatusCode?: number } };
  const status = $metadata?.httpStatusCode;
  const what =
    status === 404 ? 'no such bucket' : status === 403 ? 'access denied (check the keys and the bucket policy)' : null;
  return [what, status ? `HTTP ${status}` : null, message && message !== 'UnknownError' ? message : name]
    .filter(Boolean)
    .join(', ');
}
