import { describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { createOrg, useTestApp } from '../test/harness';
import { withTenant } from './client';
import { activities } from './schema';
import { insertMany } from './bulk-insert';
import { reserveIds } from './reserved-ids';

const t = useTestApp();

describe('insertMany (one parameter per column, decision 042)', () => {
  it('stores each value as a plain insert would: nulls, quotes, commas, braces, backslashes, "NULL" and jsonb', async () => {
    const org = await createOrg(t);
    const awkward = ['a, "quoted" {brace} \\ back', 'NULL', '', 'سطر عربي', null];
    const rows = awkward.map((note, i) => ({
      orgId: org.orgId,
      entityType: `kind-${i}`,
      entityId: 1000 + i,
      userId: i % 2 ? null : 1,
      action: 'note' as const,
      changes: i === 4 ? null : { field: { from: note, to: `x"y,{}\\${i}` } },
      note,
    }));
    const stored = await withTenant(t.database.db, org.orgId, async (tx) => {
      const first = await reserveIds(tx, org.orgId, activities, rows.length);
      await insertMany(
        tx,
        activities,
        rows.map((r, i) => ({ ...r, id: first + i })),
      );
      return tx.select().from(activities).where(eq(activities.orgId, org.orgId)).orderBy(asc(activities.entityId));
    });
    const mine = stored.filter((r) => r.entityId >= 1000);
    expect(mine.map(({ entityType, entityId, userId, action, changes, note }) => ({ entityType, entityId, userId, action, changes, note }))).toEqual(
      rows.map(({ orgId: _org, ...r }) => r),
    );
    expect(mine.every((r) => r.createdAt instanceof Date)).toBe(true);
  });

  it('does nothing for no rows and refuses a key the table lacks', async () => {
    const org = await createOrg(t);
    await withTenant(t.database.db, org.orgId, (tx) => insertMany(tx, activities, []));
    await expect(withTenant(t.database.db, org.orgId, (tx) => insertMany(tx, activities, [{ orgId: org.orgId, nope: 1 } as never]))).rejects.toThrow(
      /no column nope/,
    );
  });
});
