import { requiredString } from './validation';

// Pieces many areas' contracts share word for word: a record's name field, the document upload rule.

/** The spec's messages of a record's name (required, at most 100 characters): spread into an area's messages. */
export const NAME_MESSAGES = {
  name: 'Name is required',
  nameMax: 'Name must be at most 100 characters',
} as const;

/** A record's name: required, trimmed, at most 100 characters. */
export const nameField = () => requiredString(NAME_MESSAGES.name).max(100, NAME_MESSAGES.nameMax);

/** The spec's rule for uploaded documents (PDF and images, checked by their bytes on the server), with its messages. */
export const DOCUMENT_UPLOAD_RULES = {
  maxBytes: 10 * 1024 * 1024,
  maxFiles: 10,
  typeMessage: 'Only PDF, JPEG, PNG, and WebP files are allowed.',
  sizeMessage: 'File size should not exceed 10MB.',
} as const;
