import { inflateSync } from 'node:zlib';
import { createRequire } from 'node:module';

// zxing is a CommonJS package: required, so that Node's ESM loader and vitest both find its named exports.
const { BinaryBitmap, DecodeHintType, GlobalHistogramBinarizer, HybridBinarizer, QRCodeReader, RGBLuminanceSource } = createRequire(import.meta.url)(
  '@zxing/library',
) as typeof import('@zxing/library');

/**
 * Test helper: the images of a PDF (pdfkit's image XObjects, uncompressed PDF) as greyscale pixels, and the
 * text of the QR codes among them, decoded with zxing (the check that a printed label's code reads back).
 */
export async function qrTextsOfPdf(pdf: Buffer): Promise<string[]> {
  const { default: sharp } = await import('sharp');
  const texts: string[] = [];
  const src = pdf.toString('latin1');
  const re = /<<([^]*?)>>\s*stream\r?\n/g;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    const dict = m[1];
    if (!/\/Subtype\s*\/Image/.test(dict)) continue;
    const length = Number(/\/Length\s+(\d+)/.exec(dict)?.[1]);
    const start = m.index + m[0].length;
    const data = Buffer.from(src.slice(start, start + length), 'latin1');
    const width = Number(/\/Width\s+(\d+)/.exec(dict)?.[1]);
    const height = Number(/\/Height\s+(\d+)/.exec(dict)?.[1]);
    const colors = /\/DeviceGray/.test(dict) ? 1 : 3;
    let image: Buffer;
    if (/\/Predictor\s+15/.test(dict)) {
      // PNG scanlines as the PNG file had them: rebuilt into a PNG for sharp to read.
      const chunk = (type: string, body: Buffer) => {
        const len = Buffer.alloc(4);
        len.writeUInt32BE(body.length);
        const crc = Buffer.alloc(4);
        crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), body])));
        return Buffer.concat([len, Buffer.from(type), body, crc]);
      };
      const ihdr = Buffer.alloc(13);
      ihdr.writeUInt32BE(width, 0);
      ihdr.writeUInt32BE(height, 4);
      ihdr[8] = 8;
      ihdr[9] = colors === 1 ? 0 : 2;
      image = await sharp(
        Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', data), chunk('IEND', Buffer.alloc(0))]),
      )
        .greyscale()
        .raw()
        .toBuffer();
    } else if (/\/FlateDecode/.test(dict)) {
      image = await sharp(inflateSync(data), { raw: { width, height, channels: colors as 1 | 3 } })
        .greyscale()
        .raw()
        .toBuffer();
    } else continue;
    const text = decodeQr(image, width, height);
    if (text) texts.push(text);
  }
  return texts;
}

/** The text of a QR code in greyscale pixels, or null. */
export function decodeQr(grey: Buffer, width: number, height: number): string | null {
  const luminance = new Uint8ClampedArray(width * height);
  for (let i = 0; i < width * height; i++) luminance[i] = grey[i];
  // A printed label's image is a clean code (PURE_BARCODE reads its modules straight); the detector is the fallback.
  const attempts = [new Map([[DecodeHintType.PURE_BARCODE, true]]), new Map([[DecodeHintType.TRY_HARDER, true]])];
  for (const hints of attempts) {
    for (const Binarizer of [HybridBinarizer, GlobalHistogramBinarizer]) {
      try {
        return new QRCodeReader().decode(new BinaryBitmap(new Binarizer(new RGBLuminanceSource(luminance, width, height))), hints).getText();
      } catch {
        // the next way
      }
    }
  }
  return null;
}

let table: Int32Array | undefined;
function crc32(buf: Buffer) {
  table ??= Int32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c;
  });
  let crc = -1;
  for (const b of buf) crc = table[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}
