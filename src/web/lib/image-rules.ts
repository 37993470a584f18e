/** The spec's two upload rules, checked in the browser before sending (the server checks the bytes again). */
export const AVATAR_RULE = {
  maxBytes: 2097152,
  types: ['image/jpeg', 'image/png', 'image/webp'],
  typeMessage: 'Invalid file type. Only JPG, PNG, and WEBP are allowed.',
  sizeMessage: 'File size exceeds 2MB limit.',
} as const;

export const IMAGE_RULE = {
  maxBytes: 5 * 1024 * 1024,
  types: ['image/jpeg', 'image/png', 'image/webp'],
  typeMessage: 'Only JPEG, PNG, and WebP images are allowed.',
  sizeMessage: 'Image size should not exceed 5MB.',
} as const;

/** The first rule a file breaks, or null. */
export function checkImage(file: File, rule: typeof AVATAR_RULE | typeof IMAGE_RULE): string | null {
  if (!(rule.types as readonly string[]).includes(file.type)) return rule.typeMessage;
  if (file.size > rule.maxBytes) return rule.sizeMessage;
  return null;
}
