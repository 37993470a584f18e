import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http-error';
import { processImage } from './images';
import type { Storage } from './storage';

/** Limits and messages of a document upload (attachments: PDF and images). */
export interface DocumentRule {
  maxBytes: number;
  maxFiles: number;
  typeMessage: string;
  sizeMessage: string;
}

export interface UploadedFile {
  name: string;
  bytes: Buffer;
}

/** Reads every file of a multipart request (any field name), enforcing size and count while streaming. */
export async function readUploadedFiles(req: FastifyRequest, rule: DocumentRule): Promise<UploadedFile[]> {
  if (!req.isMultipart()) throw new HttpError(415, rule.typeMessage);
  const files: UploadedFile[] = [];
  try {
    for await (const part of req.files({ limits: { fileSize: rule.maxBytes, files: rule.maxFiles } })) {
      const bytes = await part.toBuffer();
      if (part.file.truncated) throw new HttpError(413, rule.sizeMessage);
      files.push({ name: cleanName(part.filename), bytes });
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, rule.sizeMessage);
    if (code === 'FST_FILES_LIMIT') throw new HttpError(413, `At most ${rule.maxFiles} files at once`);
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new HttpError(415, rule.typeMessage);
    throw err;
  }
  if (files.length === 0) throw new HttpError(400, 'No file uploaded');
  return files;
}

/** A display name without any path, control characters or excess length. */
function cleanName(name: string | undefined) {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const unsafe = /[\u0000-\u001f\u007f<>"]/g;
  const clean = base.replace(unsafe, '').trim().slice(0, 200);
  return clean || 'document';
}

/**
 * Checks a document by its bytes (never the client's content type): a PDF is stored as it is (served
 * sandboxed, never as HTML); an image is decoded and re-encoded without metadata. Returns the stored URL.
 */
export async function storeDocument(storage: Storage, orgId: number, file: UploadedFile, rule: DocumentRule) {
  if (file.bytes.length > rule.maxBytes) throw new HttpError(413, rule.sizeMessage);
  const { fileTypeFromBuffer } = await import('file-type'); // loaded on first use (cold start)
  const type = await fileTypeFromBuffer(file.bytes);
  if (type?.mime === 'application/pdf') return { url: await storage.put(orgId, file.bytes, 'pdf'), name: file.name };
  if (type && ['image/jpeg', 'image/png', 'image/webp'].includes(type.mime)) {
    // Images keep the generic image rule (5 MB); a file that is not really an image is refused by type.
    const image = await processImage(file.bytes, 'image').catch((err: unknown) => {
      throw err instanceof HttpError && err.statusCode === 413 ? err : new HttpError(415, rule.typeMessage);
    });
    return { url: await storage.put(orgId, image.full, 'webp'), name: file.name };
  }
  throw new HttpError(415, rule.typeMessage);
}
