/*
 * Seal (sign) images, per user: PNG, JPEG or GIF (decided by content), at most 1 MB and 2000 × 2000 pixels, at most
 * 10 per user. The bytes are a content-addressed blob; a signature embeds them, so deleting an image never changes
 * a signed document.
 */
import { GifReader } from 'omggif';
import { PNG } from 'pngjs';
import type { CoreDeps } from '../../deps.ts';
import { UPLOAD_LIMITS } from '../../files/upload-limits.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import type { UploadedFile } from '../../http/multipart-body.ts';

export const SEAL_IMAGE_MAXIMUM = 10;
export const SEAL_IMAGE_MAX_PIXELS = 2000;
export const SEAL_IMAGE_NAME_MAX = 50;

/** Width and height from the image itself; a file that does not decode is SIGNING_IMAGE_INVALID. */
export function imageSize(bytes: Buffer, contentType: string): { width: number; height: number } {
  try {
    if (contentType === 'image/png') {
      // The header's size first: a small file can declare a huge image, and decoding it would hold the event loop.
      const declared = { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
      if (declared.width > SEAL_IMAGE_MAX_PIXELS || declared.height > SEAL_IMAGE_MAX_PIXELS) return declared;
      const png = PNG.sync.read(bytes);
      return { width: png.width, height: png.height };
    }
    if (contentType === 'image/gif') {
      const gif = new GifReader(bytes);
      return { width: gif.width, height: gif.height };
    }
    // JPEG: the first start-of-frame segment (SOF0..SOF15 but DHT, JPG and DAC) holds the size.
    let at = 2;
    while (at + 9 < bytes.length) {
      if (bytes[at] !== 0xff) break;
      const marker = bytes[at + 1]!;
      const length = bytes.readUInt16BE(at + 2);
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
      }
      at += 2 + length;
    }
  } catch {
    // falls through to the refusal
  }
  throw new AppError('SIGNING_IMAGE_INVALID', { pointer: '/file' });
}

export function sealImageResource(row: Record<string, any>) {
  return {
    type: 'SealImage' as const,
    id: row.id as string,
    attributes: {
      name: row.name as string,
      contentType: row.content_type as 'image/png' | 'image/jpeg' | 'image/gif',
      width: row.width as number,
      height: row.height as number,
      size: Number(row.size_bytes),
      createdAt: new Date(row.created_at).toISOString(),
    },
  };
}

export async function createSealImage(
  deps: CoreDeps,
  principal: Principal,
  req: RequestContext,
  file: UploadedFile | null,
  name: string | undefined,
) {
  if (!file) throw new AppError('VALIDATION_FAILED', { pointer: '/file' });
  // Inspected where every upload is, in the PDF worker pool (a seal image is never a PDF: the kind is checked first).
  const inspected = await deps.pdfWork.run('inspect', {
    bytes: file.bytes,
    fileName: file.fileName,
    allowed: UPLOAD_LIMITS['seal-image'].allowed,
  });
  const size = imageSize(file.bytes, inspected.contentType);
  if (size.width > SEAL_IMAGE_MAX_PIXELS || size.height > SEAL_IMAGE_MAX_PIXELS) {
    throw new AppError('SIGNING_IMAGE_INVALID', { pointer: '/file', params: { max: SEAL_IMAGE_MAX_PIXELS } });
  }
  const label = (name?.trim() || file.fileName.replace(/\.[^.]+$/, '')).slice(0, SEAL_IMAGE_NAME_MAX);
  const stored = await deps.files.put(file.bytes);
  return deps.knex.transaction(async (trx) => {
    await trx('users').where({ id: principal.userId }).forUpdate().first('id');
    const counted = await trx('seal_images').where({ user_id: principal.userId }).count({ count: '*' });
    const count = counted[0]?.count ?? 0;
    if (Number(count) >= SEAL_IMAGE_MAXIMUM) {
      throw new AppError('SEAL_IMAGE_LIMIT', { params: { max: SEAL_IMAGE_MAXIMUM } });
    }
    const [row] = await trx('seal_images')
      .insert({
        organization_id: principal.organizationId,
        user_id: principal.userId,
        name: label,
        sha256: stored.sha256,
        content_type: inspected.contentType,
        width: size.width,
        height: size.height,
        size_bytes: stored.size,
        created_at: deps.clock.now(),
      })
      .returning('*');
    await deps.oplog.append(trx, req, {
      action: 'seal_image.created',
      organizationId: principal.organizationId,
      actorUserId: principal.userId,
      targetType: 'seal_image',
      targetId: row.id,
      details: { name: label, sha256: stored.sha256 },
    });
    return sealImageResource(row);
  });
}

export async function deleteSealImage(deps: CoreDeps, principal: Principal, req: RequestContext, id: string) {
  await deps.knex.transaction(async (trx) => {
    const removed = await trx('seal_images').where({ id, user_id: principal.userId }).delete().returning('name');
    if (removed.length === 0) throw new AppError('NOT_FOUND');
    await deps.oplog.append(trx, req, {
      action: 'seal_image.deleted',
      organizationId: principal.organizationId,
      actorUserId: principal.userId,
      targetType: 'seal_image',
      targetId: id,
      details: { name: removed[0].name },
    });
  });
}
