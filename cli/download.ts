import { createWriteStream, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { paths } from '../core/contract/api.gen.ts';
import type { ApiSession } from './api.ts';
import type { CliOutput } from './command.ts';
import { unwrap } from './errors.ts';

/** The file name a Content-Disposition header proposes (RFC 6266 `filename*` first), stripped of any folder. */
export function dispositionFileName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  const name = extended ? decodeURIComponent(extended[1]!.trim()) : plain?.[1]?.trim();
  return name ? path.basename(name) : null;
}

export interface DownloadResult {
  /** Where it went: the file path, or '-' for stdout. */
  target: string;
  bytes: number;
  contentType: string | null;
}

type DownloadPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'text/csv': unknown } } } } }
    ? P
    : never;
}[keyof paths];

/**
 * Downloads a file operation and streams it to `target` (a path; '-' for the command's output; undefined for the
 * server's file name in the current folder). A file is written under a temporary name and renamed when complete,
 * so a failed download never leaves half a file.
 */
export async function download(
  session: ApiSession,
  route: DownloadPath,
  query: Record<string, string>,
  target: string | undefined,
  output: CliOutput,
): Promise<DownloadResult> {
  const result = await (
    session.client.GET as unknown as (
      p: string,
      init: object,
    ) => Promise<{ data?: ReadableStream<Uint8Array>; error?: unknown; response: Response }>
  )(route, { params: { query }, parseAs: 'stream' });
  const body = unwrap(result);
  const { response } = result;
  const contentType = response.headers.get('content-type');
  let bytes = 0;
  const counter = async function* (source: AsyncIterable<Uint8Array>) {
    for await (const chunk of source) {
      bytes += chunk.length;
      yield chunk;
    }
  };
  const source = Readable.fromWeb(body as WebReadableStream<Uint8Array>);
  if (target === '-') {
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output.out(decoder.decode(chunk, { stream: true }));
        done();
      },
      final(done) {
        output.out(decoder.decode());
        done();
      },
    });
    await pipeline(source, counter, sink);
    return { target: '-', bytes, contentType };
  }
  const file = target ?? dispositionFileName(response.headers.get('content-disposition')) ?? 'download';
  const partial = `${file}.part`;
  try {
    await pipeline(source, counter, createWriteStream(partial));
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { target: file, bytes, contentType };
}
