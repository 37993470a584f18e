/** Types of scripts/ensure-built.mjs for the tests that start the server bundle. */
export const ROOT: string;
export const SERVER_BUNDLE: string;
export function ensureSpa(options?: { force?: boolean }): boolean;
export function ensureServerBundle(options?: { force?: boolean }): string;
