import { HttpError } from '../http-error';
import { IMAGE_RULES, IMAGE_TYPES } from '../../shared/image-rules';

export { IMAGE_RULES };

const ALLOWED = new Set(IMAGE_TYPES);
/** Decoding cap: a small file that claims 50 000 × 50 000 pixels is a decompression bomb. */
const MAX_PIXELS = 40_000_000;

export interface ProcessedImage {
  full: Buffer;
  low: Buffer;
}

/**
 * Checks an uploaded image by its bytes (never the client's content type), decodes it under a pixel
 * cap and re-encodes it as WebP without metadata, plus a 128-pixel low-resolution variant.
 */
export async function processImage(bytes: Buffer, kind: keyof typeof IMAGE_RULES): Promise<ProcessedImage> {
  const rule = IMAGE_RULES[kind];
  if (bytes.length > rule.maxBytes) throw new HttpError(413, rule.sizeMessage);
  // Image libraries load on the first upload, not at start (cold start).
  const [{ fileTypeFromBuffer }, { default: sharp }] = await Promise.all([import('file-type'), import('sharp')]);
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !ALLOWED.has(type.mime)) throw new HttpError(415, rule.typeMessage);
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).rotate();
    const full = await image.clone().resize({ width: 2048, height: 2048, fit: 'inside', withoutEnlargement: true }).webp({ quality: 85 }).toBuffer();
    const low = await image.clone().resize({ width: 128, height: 128, fit: 'cover' }).webp({ quality: 70 }).toBuffer();
    return { full, low };
  } catch {
    throw new HttpError(415, rule.typeMessage);
  }
}

/** Reads the single multipart file of a request (field `image`), enforcing the size rule while streaming. */
export async function readUploadedImage(req: import('fastify').FastifyRequest, kind: keyof typeof IMAGE_RULES): Promise<Buffer> {
  return (await readUploadedImageAndFields(req, kind)).bytes;
}

/**
 * The single multipart file of a request and the text fields sent before it (a step answer's version: the
 * browser's FormData and our client put them first), at most four short ones; the caller checks them with its
 * schema.
 */
export async function readUploadedImageAndFields(
  req: import('fastify').FastifyRequest,
  kind: keyof typeof IMAGE_RULES,
): Promise<{ bytes: Buffer; fields: Record<string, string> }> {
  const rule = IMAGE_RULES[kind];
  if (!req.isMultipart()) throw new HttpError(415, rule.typeMessage);
  // Over a limit the parser's FST_* error goes on to the error handler: 413 'Too many form fields' or 'Too many
  // files', the same words on every upload route (decision 023).
  const file = await req.file({ limits: { fileSize: rule.maxBytes, files: 1, fields: 4, fieldSize: 200 } });
  if (!file) throw new HttpError(400, 'No file uploaded');
  const fields: Record<string, string> = {};
  for (const [name, part] of Object.entries(file.fields)) {
    const one = Array.isArray(part) ? part[0] : part;
    if (name !== file.fieldname && one && one.type === 'field') fields[name] = String(one.value);
  }
  const bytes = await file.toBuffer().catch((err: { code?: string }) => {
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, rule.sizeMessage);
    throw err;
  });
  if (file.file.truncated) throw new HttpError(413, rule.sizeMessage);
  return { bytes, fields };
}
