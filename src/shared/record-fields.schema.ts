import { z } from './zod-setup';
import { requiredString } from './validation';

// Pieces many areas' contracts share word for word: a record's name field, the language choice, the document upload rule, the overview envelope.

/** The spec's messages of a record's name (required, at most 100 characters): spread into an area's messages. */
export const NAME_MESSAGES = {
  name: 'Name is required',
  nameMax: 'Name must be at most 100 characters',
} as const;

/** A record's name: required, trimmed, at most 100 characters. */
export const nameField = () => requiredString(NAME_MESSAGES.name).max(100, NAME_MESSAGES.nameMax);

/** The languages of people, portals and mails (decision 065). */
export const LANGUAGES = ['en', 'ar'] as const;
/** A language choice, with its message. */
export const languageField = () => z.enum(LANGUAGES, { error: 'Language must be en or ar' });

/** The spec's rule for uploaded documents (PDF and images, checked by their bytes on the server), with its messages. */
export const DOCUMENT_UPLOAD_RULES = {
  maxBytes: 10 * 1024 * 1024,
  maxFiles: 10,
  typeMessage: 'Only PDF, JPEG, PNG, and WebP files are allowed.',
  sizeMessage: 'File size should not exceed 10MB.',
} as const;

/**
 * A body as its fields, with the spec's `overview` envelope unwrapped (its fields, the body's own beside it
 * winning): a copy the caller may change, or null when the body is not an object (the schema then refuses it).
 */
export function overviewBody(v: unknown): Record<string, unknown> | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const body = { ...(v as Record<string, unknown>) };
  if (!body.overview || typeof body.overview !== 'object' || Array.isArray(body.overview)) return body;
  const { overview, ...rest } = body;
  return { ...(overview as Record<string, unknown>), ...rest };
}
