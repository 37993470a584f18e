import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql, type Placeholder } from 'drizzle-orm';
import { createOrg, createTestApp, type TestApp } from '../test/harness';
import { withTenant, type ReadTx } from './client';
import { users, workOrders } from './schema';
import { bindTo, param, preparedRead, type Bind } from './prepared';

let t: TestApp;
/**
 * Named statements (decision 019) where the deployment keeps them: PGlite, and PostgreSQL reached directly with
 * DB_PREPARED_STATEMENTS=on (decision 062); through a transaction pooler (the CI's PgBouncer run) they stay off.
 */
const namedStatements = !process.env.DATABASE_URL || !process.env.PGBOUNCER_UPSTREAM_URL;
beforeAll(async () => {
  const before = process.env.DB_PREPARED_STATEMENTS;
  if (namedStatements) process.env.DB_PREPARED_STATEMENTS = 'on';
  try {
    t = await createTestApp();
  } finally {
    if (before === undefined) delete process.env.DB_PREPARED_STATEMENTS;
    else process.env.DB_PREPARED_STATEMENTS = before;
  }
});
afterAll(() => t.close());

type Role = 'worker' | 'manager';
/** The people of an organisation, optionally of one role, by id: given values, or placeholders for `preparedRead`. */
const emailsQuery = (tx: ReadTx, v: { orgId: number | Placeholder; role?: Role | Placeholder; limit: number | Placeholder; offset: number | Placeholder }) =>
  tx
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.orgId, v.orgId), v.role ? eq(users.role, v.role) : undefined))
    .orderBy(asc(users.id))
    .limit(v.limit)
    .offset(v.offset);

/** The statement 'test.emails' (of one role when `role`), with its values as placeholders. */
const emailsStatement = (tx: ReadTx, role?: Role) =>
  emailsQuery(tx, { orgId: param('orgId'), role: role ? param('role') : undefined, limit: param('limit'), offset: param('offset') });

/** The people of an organisation, optionally of one role, through `preparedRead`. */
const emailsOf = (orgId: number, role?: Role, offset = 0) =>
  withTenant(
    t.database.db,
    orgId,
    (tx) => preparedRead(tx, 'test.emails', () => emailsStatement(tx, role), { orgId, role, limit: 50, offset }).then((rows) => rows.map((r) => r.email)),
    { readOnly: true },
  );

/** A read of organisation `orgId` through `preparedRead` of `statement`, its select built on the read's transaction. */
const readPrepared = (
  orgId: number,
  statement: string,
  build: (tx: ReadTx) => ReturnType<Parameters<typeof preparedRead<unknown>>[2]>,
  values: Record<string, unknown>,
) => withTenant(t.database.db, orgId, (tx) => preparedRead(tx, statement, () => build(tx), values), { readOnly: true });

describe('reads with placeholders (preparedRead)', () => {
  it('gives each call its own values, across organisations, shapes and pages, as a freshly built query would', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    for (const org of [a, b]) for (const role of ['worker', 'worker', 'manager'] as const) await org.as(role);
    const expected = async (orgId: number, role?: Role, offset = 0) =>
      withTenant(t.database.db, orgId, async (tx) => (await emailsQuery(tx, { orgId, role, limit: 50, offset })).map((r) => r.email));
    // Interleaved on purpose: the same connection serves both organisations and both shapes in turn.
    for (let round = 0; round < 3; round++) {
      for (const org of [a, b]) {
        expect(await emailsOf(org.orgId)).toEqual(await expected(org.orgId));
        expect(await emailsOf(org.orgId, 'worker')).toEqual(await expected(org.orgId, 'worker'));
        expect(await emailsOf(org.orgId, 'manager', 0)).toEqual(await expected(org.orgId, 'manager'));
        expect(await emailsOf(org.orgId, 'worker', 1)).toEqual(await expected(org.orgId, 'worker', 1));
      }
    }
    expect(await emailsOf(a.orgId, 'worker')).toHaveLength(2);
    expect((await emailsOf(b.orgId)).every((email) => email.endsWith(`@${b.subdomain}.example.com`))).toBe(true);
  });

  it('still walls off other organisations when a statement is given their id', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    await emailsOf(a.orgId);
    // Row-level security answers for the organisation the connection is set to, whatever the parameter says.
    const leaked = await readPrepared(a.orgId, 'test.emails', (tx) => emailsStatement(tx), { orgId: b.orgId, limit: 50, offset: 0 });
    expect(leaked).toEqual([]);
  });
});

describe('reads with one plan for every organisation (decision 019)', () => {
  // PostgreSQL's request connections keep them (node-postgres names them per connection), PGlite's session too.
  it('name the bell for one plan, and each organisation still reads its own bell and cards', { timeout: 120_000 }, async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const soon = new Date(Date.now() + 2 * 86_400_000).toISOString();
    for (const [org, orders] of [
      [a, 3],
      [b, 1],
    ] as const) {
      for (let i = 0; i < orders; i++) {
        const added = await org.admin.post('/api/work-orders/add-work-order', { title: `Pump ${i}`, priority: i ? 'low' : 'high', dueDate: soon });
        expect(added.status).toBe(201);
      }
    }
    type Entry = { entityType: string; entityId: number };
    const read = async (org: typeof a) => ({
      bell: (await org.admin.get('/api/activities/recent')).body.activities as Entry[],
      cards: (await org.admin.get('/api/work-orders/get-statistics')).body.statistics,
      list: (await org.admin.get('/api/work-orders/get-work-orders?page=1&pageSize=10')).body.workOrders.length,
    });
    const workOrdersIn = (bell: Entry[]) => bell.filter((entry) => entry.entityType === 'work-order').map((entry) => entry.entityId);
    // A history long enough that a plan's row estimates matter (older than everything above, so the bell's
    // fifteen are the same), and the planner's statistics, as autovacuum keeps them on a live database.
    // Without triggers: the per-organisation id trigger updates one counter row per inserted row, and 20,000
    // versions of one row in one statement took 14 s of a busy machine (the ids are given here anyway).
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(
        sql`insert into activities (org_id, id, entity_type, entity_id, action, created_at)
            select ${a.orgId}, 100000 + i, 'asset', 1, 'updated', now() - interval '30 days' - i * interval '1 second' from generate_series(1, 20000) i`,
      );
    });
    await t.database.db.execute(sql`analyze work_orders, activities, users`);
    // The first runs are planned for their own values, as an unnamed statement is.
    const first = { a: await read(a), b: await read(b) };
    expect(first.a.cards).toEqual({ totalPending: 3, dueNext7Days: 3, highPriorityPending: 1 });
    expect(first.b.cards).toEqual({ totalPending: 1, dueNext7Days: 1, highPriorityPending: 1 });
    expect(workOrdersIn(first.a.bell)).toEqual([3, 2, 1]);
    expect(workOrdersIn(first.b.bell)).toEqual([1]);
    // Past the five runs after which PostgreSQL weighs a generic plan, the organisations taking turns on the
    // connection: the generic plan gives each exactly what the first runs gave.
    for (let run = 0; run < 8; run++) {
      expect(await read(a)).toEqual(first.a);
      expect(await read(b)).toEqual(first.b);
    }
    const preparedNow = () =>
      withTenant(
        t.database.db,
        b.orgId,
        async (tx) =>
          (
            (await tx.execute(sql`select name, statement, generic_plans::int as generic from pg_prepared_statements`)) as unknown as {
              rows: { name: string; statement: string; generic: number }[];
            }
          ).rows,
        { readOnly: true },
      );
    // The managers' variants (this test's): a worker's bell (filtered by assignment) is another named statement,
    // which other files sharing this database session (PGlite, one per test worker) may have made.
    const namedIn = (rows: { statement: string }[], table: string) =>
      rows.filter((plan) => plan.statement.includes(`from "${table}"`) && !plan.statement.includes('"work_order_assignees"'));
    // pg_prepared_statements is the session's: on PostgreSQL the check runs on whichever pooled connection is free,
    // which on a loaded run (a job holding the last one) was not the one that served the reads: the bell is read
    // again until the checking connection is one that served it.
    let plans = await preparedNow();
    for (let tries = 0; namedStatements && !namedIn(plans, 'activities').length && tries < 10; tries++) {
      await read(b);
      plans = await preparedNow();
    }
    const named = (table: string) => namedIn(plans, table);
    for (const table of ['activities']) {
      expect(named(table)).toEqual(
        namedStatements ? [{ name: expect.stringMatching(/^kept_\d+$/), statement: expect.any(String), generic: expect.any(Number) }] : [],
      );
    }
    // Every other read stays unnamed, planned for its own values each time (the work orders list among them);
    // the others named are the caller's rights check (decision 021) and the users' related records (index
    // lookups by user, read after a page of users).
    expect(plans.filter((plan) => !['activities', 'sessions', 'user_work_stations'].some((table) => plan.statement.includes(`from "${table}"`)))).toEqual([]);
  });

  it('drop a statement that outlived a change of its columns (with its connection on PostgreSQL), so that the bell comes back by itself', async () => {
    const org = await createOrg(t);
    const bell = async () => (await org.admin.get('/api/activities/recent')).status;
    for (let run = 0; run < 3; run++) expect(await bell()).toBe(200);
    // What another instance's migration may do: change the type of a column the bell selects. Each connection
    // that prepared the bell fails it once ("cached plan must not change result type"), then is replaced.
    const settles = async () => {
      const statuses: number[] = [];
      for (let run = 0; run < 12; run++) statuses.push(await bell());
      expect(statuses.slice(-5)).toEqual([200, 200, 200, 200, 200]);
    };
    await t.database.db.execute(sql`alter table activities alter column note type varchar(10000)`);
    try {
      await settles();
    } finally {
      await t.database.db.execute(sql`alter table activities alter column note type text`);
    }
    await settles();
  });
});

describe('one filter for placeholders and bound values', () => {
  it('gives the same rows with placeholders (param) and with the values bound (bindTo), arrays included', async () => {
    const a = await createOrg(t);
    for (const role of ['worker', 'worker', 'manager'] as const) await a.as(role);
    const values = { orgId: a.orgId, roles: ['worker', 'manager'] };
    const where = (bind: Bind) => and(eq(users.orgId, bind('orgId')), sql`${users.role} = any(${bind('roles')})`);
    const [kept, bound] = await withTenant(t.database.db, a.orgId, async (tx) => [
      await tx.select({ id: users.id }).from(users).where(where(param)).orderBy(asc(users.id)).prepare('').execute(values),
      await tx
        .select({ id: users.id })
        .from(users)
        .where(where(bindTo(values)))
        .orderBy(asc(users.id)),
    ]);
    expect(kept).toHaveLength(3);
    expect(bound).toEqual(kept);
  });
});

describe("rows decoded by the statement's own decoder (decision 052)", () => {
  it('gives what drizzle gives: dates, text, numbers, json, nulls, nested objects, joined columns', async () => {
    const a = await createOrg(t);
    const due = new Date(Date.now() + 86_400_000).toISOString();
    expect((await a.admin.post('/api/work-orders/add-work-order', { title: 'Pump "A", {b}', priority: 'high', dueDate: due })).status).toBe(201);
    expect((await a.admin.post('/api/work-orders/add-work-order', { title: 'Valve', priority: 'low' })).status).toBe(201);
    const build = (tx: ReadTx) =>
      tx
        .select({
          id: workOrders.id,
          title: workOrders.title,
          dueDate: workOrders.dueDate,
          createdAt: workOrders.createdAt,
          email: users.email,
          settings: users.notificationSettings,
          author: { upper: sql<string>`upper(${users.email})`, id: sql<number | null>`${users.id}` },
          open: sql<boolean>`${workOrders.status} <> 'completed'`,
          lines: sql<number>`(select count(*)::int from work_orders w where w.org_id = ${workOrders.orgId})`,
          stamp: sql<string | null>`null`,
        })
        .from(workOrders)
        .leftJoin(users, and(eq(users.orgId, workOrders.orgId), eq(users.id, workOrders.createdById)))
        .where(eq(workOrders.orgId, param('orgId')))
        .orderBy(asc(workOrders.id));
    const [kept, drizzles] = await withTenant(
      t.database.db,
      a.orgId,
      async (tx) => [await preparedRead(tx, 'test.decoded', () => build(tx), { orgId: a.orgId }), await build(tx).prepare('').execute({ orgId: a.orgId })],
      { readOnly: true },
    );
    expect(kept).toHaveLength(2);
    expect(kept[0].createdAt).toBeInstanceOf(Date);
    expect(typeof kept[0].lines).toBe('number');
    expect(kept[0].email).toMatch(/@/);
    expect(kept[0].author.upper).toBe(kept[0].email!.toUpperCase());
    expect(kept).toEqual(drizzles);
    // The same objects as drizzle's, key order included (answers are written in it).
    expect(JSON.stringify(kept)).toBe(JSON.stringify(drizzles));
  });

  it("refuses a joined select that nests a table's columns (drizzle may turn that object into null)", async () => {
    const a = await createOrg(t);
    const read = readPrepared(
      a.orgId,
      'test.nested',
      (tx) =>
        tx
          .select({ id: workOrders.id, author: { email: users.email } })
          .from(workOrders)
          .leftJoin(users, eq(users.id, workOrders.createdById))
          .where(eq(workOrders.orgId, param('orgId'))),
      { orgId: a.orgId },
    );
    await expect(read).rejects.toThrow(/nests table columns under author/);
  });

  it('refuses, in development and tests, a statement whose values drizzle maps with mapWith', async () => {
    const a = await createOrg(t);
    // As count() on PostgreSQL (a bigint's text mapped with Number), a value only drizzle's mapping changes.
    const marked = sql<string>`${users.email}`.mapWith((email: string) => `<${email}>`);
    const read = readPrepared(
      a.orgId,
      'test.mapped',
      (tx) =>
        tx
          .select({ email: marked })
          .from(users)
          .where(eq(users.orgId, param('orgId'))),
      { orgId: a.orgId },
    );
    await expect(read).rejects.toThrow(/row 0, email: decoded as "[^"]+@[^"]+" \(string\) where drizzle gives "<[^"]+>" \(string\)/);
  });
});

describe('the check of every run in development and tests (issue 40)', () => {
  it('refuses a statement that captured a value in its build: asked for the managers, it would answer with the workers', async () => {
    const a = await createOrg(t);
    await a.as('worker');
    await a.as('manager');
    // The mistake the check exists for: `role` written into the build instead of `param('role')`.
    const emailsCapturing = (role: 'worker' | 'manager') =>
      readPrepared(
        a.orgId,
        'test.captured',
        (tx) =>
          tx
            .select({ email: users.email })
            .from(users)
            .where(and(eq(users.orgId, param('orgId')), eq(users.role, role))),
        { orgId: a.orgId, role },
      );
    expect(await emailsCapturing('worker')).toHaveLength(1);
    await expect(emailsCapturing('manager')).rejects.toThrow(
      /preparedRead test\.captured:orgId,role: built again for these values it gives the parameters \[ \d+, 'manager' \] where the kept statement sends \[ \d+, 'worker' \]/,
    );
    // Through param() the same read serves both.
    expect(await emailsOf(a.orgId, 'manager')).toHaveLength(1);
  });
});

describe('the development check of a first run under concurrent writes (issue 45)', () => {
  it('never fails a read because rows changed while it ran (a decoder that differs still fails: the mapWith test)', async () => {
    const a = await createOrg(t);
    const list = (tag: string) =>
      readPrepared(
        a.orgId,
        `test.first-run-${tag}`,
        (tx) =>
          tx
            .select({ id: workOrders.id, title: workOrders.title })
            .from(workOrders)
            .where(eq(workOrders.orgId, param('orgId')))
            .orderBy(asc(workOrders.id)),
        { orgId: a.orgId },
      );
    // A writer adds work orders without pause while forty statements each run for the first time (checked).
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        await withTenant(t.database.db, a.orgId, (tx) => tx.insert(workOrders).values({ orgId: a.orgId, title: `Pump ${written}`, status: 'assigned' }));
        written++;
      }
    })();
    const reads = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => list(`${process.pid}-${i}`)));
    writing = false;
    await writer;
    expect(written).toBeGreaterThan(0);
    expect(reads.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
  });
});
