import { requiredString } from './validation';

// Pieces many areas' contracts share word for word: a record's name field.

/** The spec's messages of a record's name (required, at most 100 characters): spread into an area's messages. */
export const NAME_MESSAGES = {
  name: 'Name is required',
  nameMax: 'Name must be at most 100 characters',
} as const;

/** A record's name: required, trimmed, at most 100 characters. */
export const nameField = () => requiredString(NAME_MESSAGES.name).max(100, NAME_MESSAGES.nameMax);
