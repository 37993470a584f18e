import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { IMAGE_RULES, processImage } from './images';
import { pngBomb, solidImage } from '../test/images';

const png = (w: number, h: number) => solidImage('png', w, h, '#336699');

describe('image uploads', () => {
  it('re-encodes a real image as WebP without metadata, with a low-resolution variant', async () => {
    const withExif = await sharp(await png(300, 200))
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-gps' } } })
      .toBuffer();
    const out = await processImage(withExif, 'avatar');
    const meta = await sharp(out.full).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect((await sharp(out.low).metadata()).width).toBe(128);
  });

  it.each([
    ['a text file named .png', Buffer.from('hello, I am text pretending to be an image')],
    ['SVG with script', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['HTML', Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>')],
    [
      'PNG magic followed by HTML',
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('<html><script>alert(1)</script>')]),
    ],
    ['a GIF (not allowed)', Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64')],
  ])('refuses %s with the spec message', async (_name, bytes) => {
    await expect(processImage(bytes, 'avatar')).rejects.toMatchObject({ statusCode: 415, message: IMAGE_RULES.avatar.typeMessage });
    await expect(processImage(bytes, 'image')).rejects.toMatchObject({ statusCode: 415, message: IMAGE_RULES.image.typeMessage });
  });

  it('refuses a file one byte over the limit and accepts one at the limit', async () => {
    const base = await png(10, 10);
    const atLimit = Buffer.concat([base, Buffer.alloc(IMAGE_RULES.avatar.maxBytes - base.length)]);
    await expect(processImage(atLimit, 'avatar')).resolves.toBeDefined();
    const over = Buffer.concat([atLimit, Buffer.alloc(1)]);
    await expect(processImage(over, 'avatar')).rejects.toMatchObject({ statusCode: 413, message: 'File size exceeds 2MB limit.' });
  });

  it('refuses a decompression bomb (tiny file, huge pixel count)', async () => {
    const bomb = pngBomb(7000, 6000);
    expect(bomb.length).toBeLessThan(IMAGE_RULES.image.maxBytes);
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({ format: 'png', width: 7000, height: 6000 });
    await expect(processImage(bomb, 'image')).rejects.toMatchObject({ statusCode: 415 });
  });
});
