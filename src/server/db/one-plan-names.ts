/**
 * PGlite's session keeps the reads that may keep one plan (decision 019) as PostgreSQL's request connections
 * do, but drizzle's PGlite driver passes no statement name to its client: the embedded database's thread
 * looks the name up by the statement's text. One text per shape, so the map is as small as the number of
 * shapes. A module of its own, without dependencies: `pglite-thread.ts` loads before the rest of the server.
 */
const names = new Map<string, string>();

/** Records `name` for the text of drizzle's prepared query `query`. */
export const nameForPGlite = (query: unknown, name: string) => {
  const text = (query as { queryString?: unknown }).queryString;
  if (typeof text === 'string') names.set(text, name);
};

/** The name of a statement that may keep one plan, by its text; undefined for every other statement. */
export const onePlanNameOf = (text: string): string | undefined => names.get(text);
