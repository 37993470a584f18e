import { z } from './zod-setup';

/** A stored upload as the API returns it; only this application's own upload paths are accepted back. */
// A form sends back the URL as it was shown, signed (decision 024); the server takes the signature off first.
export const UPLOAD_URL_PATTERN = /^\/uploads\/org-\d+\/[0-9a-f-]{36}\.(webp|png|jpg|pdf)(\?exp=\d+&sig=[\w-]+)?$/;
export const storedFileSchema = z.strictObject({
  url: z.string({ error: 'Attachment url is required' }).regex(UPLOAD_URL_PATTERN, 'Attachments must be files uploaded to this application'),
  name: z
    .string({ error: 'Attachment name is required' })
    .trim()
    .min(1, 'Attachment name is required')
    .max(255, 'Attachment name must be at most 255 characters'),
});
export type StoredFile = z.infer<typeof storedFileSchema>;

/** Uploaded files, or bare upload URLs (named after their file); null is no list. A preprocess step. */
export const toStoredFiles = (v: unknown) =>
  v === null
    ? undefined
    : Array.isArray(v)
      ? v.map((a) => (typeof a === 'string' && UPLOAD_URL_PATTERN.test(a) ? { url: a, name: a.split('/').pop() } : a))
      : v;
