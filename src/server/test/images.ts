import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A PNG chunk: its length, type and data, and the CRC of type and data. */
function chunk(type: string, data: Buffer) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A real PNG of `width` × `height` black pixels (greyscale, one bit each) in a few kilobytes: a decompression
 * bomb that decodes, made by hand in milliseconds (sharp takes seconds of CPU to encode one that large).
 */
export function pngBomb(width: number, height: number) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, adaptive filtering, no interlace
  // Each row: filter type 0, then width bits of zeros.
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** `png` with its header claiming `width` × `height` pixels (CRC fixed so that decoders read on): the bomb's shape. */
export function pngClaiming(png: Buffer, width: number, height: number) {
  const out = Buffer.from(png);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

/** A real image of one colour, `width` × `height`, encoded by sharp as `format` (what a camera or a form uploads). */
export function solidImage(format: 'png' | 'jpeg' | 'webp', width: number, height: number, background: string) {
  return sharp({ create: { width, height, channels: 3, background } })
    [format]()
    .toBuffer();
}
