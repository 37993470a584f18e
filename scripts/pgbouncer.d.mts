/** Types of scripts/pgbouncer.mjs for the tests that start a PgBouncer of their own. */
export const PGBOUNCER: string;
export function ensurePgbouncer(): string;
export function pgbouncerIni(options: { upstream: string; port: number; dir: string; poolSize: number }): string;
export function startPgbouncer(options: { upstream: string; poolSize?: number }): Promise<{
  port: number;
  url: string;
  urlOf(database: string): string;
  log(): string;
  stop(): Promise<void>;
}>;
