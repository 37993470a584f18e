import { expect } from 'vitest';

/** A refusal's body: `{ error, issues? }` (src/server/README.md). */
interface Refusal {
  issues?: { path: string; message: string }[];
}

/** A refusal's issues as `path -> message` (of a path named twice, the last message). */
export const issuesOf = (body: Refusal) => Object.fromEntries((body.issues ?? []).map((i) => [i.path, i.message]));

/** A refusal's issues as `path -> message` (of a path named twice, the first message: the one its field shows). */
export const firstIssuesOf = (body: Refusal) => Object.fromEntries([...(body.issues ?? [])].reverse().map((i) => [i.path, i.message]));

/** The issues of a 400 answer, its status checked first (`read`: `issuesOf`, or `firstIssuesOf`). */
export function badRequestIssues(res: { status: number; body: Refusal }, read = issuesOf) {
  expect(res.status).toBe(400);
  return read(res.body);
}
