import { config } from 'zod/mini';

// zod's default English never reaches a user: a missing field reads like the spec's required
// message, anything else gets a plain sentence. Schemas still give their own spec messages first.
// The configuration is zod's global one: it holds for the classic API (zod-setup.ts) and for zod/mini.
config({
  customError: (issue) => {
    if (issue.code === 'invalid_type' && issue.input === undefined) return 'This field is required';
    if (issue.code === 'unrecognized_keys') return `Unknown field: ${issue.keys.join(', ')}`;
    if (issue.code === 'invalid_type') return `Expected ${issue.expected}`;
    if (issue.code === 'invalid_value') return 'Invalid value';
    if (issue.code === 'too_big') return 'Value is too large';
    if (issue.code === 'too_small') return 'Value is too small';
    if (issue.code === 'invalid_format') return 'Invalid format';
    return 'Invalid value';
  },
});
