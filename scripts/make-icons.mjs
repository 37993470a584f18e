#!/usr/bin/env node
// The web app manifest's icons (issue 27), made from public/icons/logo.svg with sharp:
// 192 and 512 (any purpose), a 512 maskable one (the logo inside the safe zone, on the theme colour) and the
// 180 px apple-touch-icon. Run after changing the logo: node scripts/make-icons.mjs (the PNGs are committed).
import { resolve } from 'node:path';
import sharp from 'sharp';

const dir = resolve(import.meta.dirname, '../public/icons');
const logo = resolve(dir, 'logo.svg');

for (const size of [192, 512])
  await sharp(logo, { density: 300 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(resolve(dir, `icon-${size}.png`));
await sharp(logo, { density: 300 })
  .resize(180, 180)
  .flatten({ background: '#4c6ef5' })
  .png({ compressionLevel: 9 })
  .toFile(resolve(dir, 'apple-touch-icon.png'));
// Maskable: the platform crops to a circle or squircle; the logo keeps to the inner 80 %.
const inner = await sharp(logo, { density: 300 }).resize(384, 384).png().toBuffer();
await sharp({ create: { width: 512, height: 512, channels: 4, background: '#4c6ef5' } })
  .composite([{ input: inner, gravity: 'centre' }])
  .png({ compressionLevel: 9 })
  .toFile(resolve(dir, 'maskable-512.png'));
console.log('icons written to', dir);
