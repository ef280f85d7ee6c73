import { performance } from 'node:perf_hooks';
import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { imageSize, SEAL_IMAGE_MAX_PIXELS } from './seal-images.ts';

/** A PNG chunk: length, type, data and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([length, body, crc]);
}

/** A grey PNG of `width` × `height` whose pixel data is `rows` rows of zeros (fewer than it declares). */
function png(width: number, height: number, rows: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(rows * (width + 1)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('seal image size', () => {
  it('reads a small image by decoding it', () => {
    expect(imageSize(png(40, 30, 30), 'image/png')).toEqual({ width: 40, height: 30 });
  });

  it('takes the size of an image too large from its header, without decoding 900 million pixels', () => {
    const side = SEAL_IMAGE_MAX_PIXELS * 15;
    const started = performance.now();
    expect(imageSize(png(side, side, 10), 'image/png')).toEqual({ width: side, height: side });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
