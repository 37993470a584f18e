/** Subdomains of the two organisations bench/generate/run.ts sizes on purpose and bench/scale/run.ts compares. */
export const BIG_SUBDOMAIN = 'bench-big';
export const SMALL_SUBDOMAIN = 'bench-small';
