import { describe, expect, it } from 'vitest';
import { z } from '../../shared/zod-setup';
import { projection } from './response-projection';

const user = z.object({ id: z.number(), name: z.string(), manager: z.object({ id: z.number() }).nullable() });
const answer = z.object({
  users: z.array(user),
  byTeam: z.record(z.string(), z.array(user)),
  note: z.string().optional(),
  kind: z.string().default('plain'),
  'odd "key"': z.number().nullable(),
  either: z.union([z.object({ a: z.number() }), z.object({ b: z.number() })]),
});

describe('the response projection', () => {
  it('writes what the schema declares, at every depth, and no other key', () => {
    const secret = { passwordHash: 'argon2id$…', token: 'abc' };
    const row = { id: 1, name: 'Ada', manager: { id: 2, ...secret }, ...secret };
    const out = projection(answer)({
      users: [row, { ...row, manager: null }],
      byTeam: { pumps: [row] },
      'odd "key"': 3,
      either: { a: 1, ...secret },
      ...secret,
    });
    expect(out).toEqual({
      users: [
        { id: 1, name: 'Ada', manager: { id: 2 } },
        { id: 1, name: 'Ada', manager: null },
      ],
      byTeam: { pumps: [{ id: 1, name: 'Ada', manager: { id: 2 } }] },
      kind: 'plain',
      'odd "key"': 3,
      either: { a: 1 },
    });
    expect(JSON.stringify(out)).not.toContain('argon2id');
    expect(JSON.stringify(out)).not.toContain('token');
  });

  it('gives what zod parse gives for a valid answer', () => {
    const valid = { users: [{ id: 1, name: 'Ada', manager: null }], byTeam: {}, note: 'n', kind: 'rich', 'odd "key"': null, either: { b: 2 } };
    expect(JSON.stringify(projection(answer)(valid))).toBe(JSON.stringify(answer.parse(valid)));
  });

  it('keeps a loose object whole, as zod does', () => {
    const loose = z.looseObject({ id: z.number() });
    expect(projection(loose)({ id: 1, extra: 2 })).toEqual({ id: 1, extra: 2 });
  });
});
