/** A standard address: something@domain.tld (spec: 'Invalid email address'). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
