/**
 * The two upload rules of the spec (the generic image rule and the avatar rule) with their messages:
 * browser-safe, so a client can check a file before it is sent (the technician's offline queue, decision 041)
 * with the server's own figures and words (src/server/uploads/images.ts checks the bytes).
 */
export const IMAGE_RULES = {
  image: {
    maxBytes: 5 * 1024 * 1024,
    typeMessage: 'Only JPEG, PNG, and WebP images are allowed.',
    sizeMessage: 'Image size should not exceed 5MB.',
  },
  avatar: {
    maxBytes: 2097152,
    typeMessage: 'Invalid file type. Only JPG, PNG, and WEBP are allowed.',
    sizeMessage: 'File size exceeds 2MB limit.',
  },
} as const;

/** The image types every upload accepts. */
export const IMAGE_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/webp'];
