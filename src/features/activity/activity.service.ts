import { and, desc, eq, gte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { writeUser } from '../auth/identity-writes';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ReadTx, Tx } from '../../server/db/client';
import type { AccessClaims } from '../auth/tokens';
import { activities, users } from '../../server/db/schema';
import { limitInText, param, preparedRead } from '../../server/db/prepared';
import { reserveIds } from '../../server/db/reserved-ids';
import { insertMany } from '../../server/db/bulk-insert';
import { HttpError, notFound } from '../../server/http-error';
import { noteAudit } from '../audit/audit-context';
import { DEFAULT_NOTIFICATION_SETTINGS, NOTIFICATION_TOPICS, type ActivityItem, type NotificationSettings, type RecentActivity } from './activity.schema';

type Action = ActivityItem['action'];
type Trackable = PgTable & { orgId: PgColumn; id: PgColumn };

/**
 * Which records of a type a worker sees, when not all of them: SQL that is true for a record's id, e.g. "is
 * assigned to the worker". Managers and admins see every record; a type without it is seen by every member.
 */
export type WorkerSees = (record: { orgId: SQLWrapper; id: SQLWrapper; userId: SQLWrapper }) => SQL;

/** Who reads a history, writes a note or opens the bell. */
export type Viewer = Pick<AccessClaims, 'userId' | 'role'>;

/** Record types whose history and notes can be read and written, with the table that proves a record exists. */
const entities = new Map<string, { table: Trackable; label: string; workerSees?: WorkerSees }>();

/**
 * Called once by a feature for each record type it tracks, e.g. registerActivityEntity('work-order', workOrders,
 * 'Work order', assignedToWorker). `workerSees` is the rule of the feature's own get and list (decision 024).
 * Returns the type's history writer (`historyOf`), so that a service registers and writes its lines in one place.
 */
export function registerActivityEntity(entityType: string, table: Trackable, label: string, workerSees?: WorkerSees) {
  entities.set(entityType, { table, label, workerSees });
  return historyOf(entityType);
}

/** The viewer when their role limits what they see (a worker), else undefined (managers and admins see all). */
const limitedViewer = (viewer: Viewer) => (viewer.role === 'admin' || viewer.role === 'manager' ? undefined : viewer.userId);

/**
 * The one rule of visibility for history, notes and the bell (decision 024): SQL that is true when the worker
 * `workerId` may see the record (its type and id). Undefined when nothing is hidden: a manager, or no type limits
 * workers. SQL, so that the bell filters in its one statement.
 */
function visibleRecord(record: { orgId: SQLWrapper; entityType: SQLWrapper | string; entityId: SQLWrapper }, workerId: SQLWrapper | undefined) {
  if (!workerId) return undefined;
  const limits = [...entities]
    .filter(([, e]) => e.workerSees)
    .map(([type, e]) => sql`(${record.entityType} <> ${type} or ${e.workerSees!({ orgId: record.orgId, id: record.entityId, userId: workerId })})`);
  return limits.length ? and(...limits) : undefined;
}

/** Writes one history line in the caller's transaction, so it is kept exactly when the change is. */
export async function recordActivity(
  tx: Tx,
  orgId: number,
  entry: { entityType: string; entityId: number; userId?: number | null; actorName?: string; action: Action; changes?: ActivityItem['changes']; note?: string },
) {
  // The request's audit row lists the record and its fields old -> new (decision 078).
  noteAudit(tx, { entityType: entry.entityType, entityId: entry.entityId, action: entry.action, changes: entry.changes ?? null });
  await tx.insert(activities).values({
    orgId,
    entityType: entry.entityType,
    entityId: entry.entityId,
    userId: entry.userId ?? null,
    actorName: entry.actorName ?? null,
    action: entry.action,
    changes: entry.changes ?? null,
    note: entry.note ?? null,
  });
}

/**
 * The history writer of one kind of record, for the common line: a signed-in user's action on one record, with its
 * changes. `historyOf('work-order')(tx, orgId, id, userId, 'updated', changes)` is `recordActivity` with those fields.
 */
export const historyOf =
  (entityType: string) => (tx: Tx, orgId: number, entityId: number, userId: number | null, action: Action, changes?: ActivityItem['changes']) =>
    recordActivity(tx, orgId, { entityType, entityId, userId, action, changes });

/**
 * Writes several history lines in one statement (background work and imports creating many records at once), their
 * ids reserved with one counter update (`reserveIds`): a long transaction of many batches does not update the
 * counter row once per line.
 */
export async function recordActivities(
  tx: Tx,
  orgId: number,
  entries: { entityType: string; entityId: number; userId?: number | null; action: Action; changes?: ActivityItem['changes'] }[],
) {
  if (!entries.length) return;
  for (const e of entries) noteAudit(tx, { entityType: e.entityType, entityId: e.entityId, action: e.action, changes: e.changes ?? null });
  const first = await reserveIds(tx, orgId, activities, entries.length);
  await insertMany(
    tx,
    activities,
    entries.map((e, i) => ({
      orgId,
      id: first + i,
      entityType: e.entityType,
      entityId: e.entityId,
      userId: e.userId ?? null,
      action: e.action,
      changes: e.changes ?? null,
      note: null,
    })),
  );
}

/** The fields whose values differ between `before` and `after` (only those named), as { field: { from, to } }. */
export function diffChanges<T extends Record<string, unknown>>(before: T, after: Partial<T>, fields: readonly (keyof T)[]) {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of fields) {
    if (!(field in after)) continue;
    const from = normalise(before[field]);
    const to = normalise(after[field]);
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[String(field)] = { from, to };
  }
  return changes;
}

const normalise = (v: unknown) => (v instanceof Date ? v.toISOString() : v === undefined ? null : v);

/** 404 unless the record exists in the organisation and the viewer may see it (a worker's unassigned work order does not exist for them). */
async function requireVisible(tx: ReadTx, orgId: number, viewer: Viewer, entityType: string, entityId: number) {
  const entity = entities.get(entityType);
  if (!entity) throw new HttpError(404, 'Unknown record type');
  const workerId = limitedViewer(viewer);
  if (!(await recordSeen(tx, orgId, entityType, entityId, workerId === undefined ? undefined : sql`${workerId}`))) throw notFound(entity.label);
}

/** Whether the record is in the organisation and, for a worker (`workerId`), shown to them: one statement. */
async function recordSeen(tx: ReadTx, orgId: number, entityType: string, entityId: number, workerId: SQL | undefined) {
  const { table } = entities.get(entityType)!;
  const [row] = await tx
    .select({ id: table.id })
    .from(table as PgTable)
    .where(and(eq(table.orgId, orgId), eq(table.id, entityId), visibleRecord({ orgId: table.orgId, entityType, entityId: table.id }, workerId)));
  return row !== undefined;
}

/**
 * Of the people given, those who may see the record (the same rule as history, notes and the bell): managers and
 * admins always; a worker when the record's type shows it to them. Notifications reach only these (decision 074).
 */
export async function peopleWhoMaySee(
  tx: ReadTx,
  orgId: number,
  entityType: string,
  entityId: number,
  people: { id: number; role: Viewer['role'] }[],
): Promise<number[]> {
  const entity = entities.get(entityType);
  if (!entity) return [];
  // Nobody sees a record that is not there (another organisation's id, a deleted one).
  if (!(await recordSeen(tx, orgId, entityType, entityId, undefined))) return [];
  const seen: number[] = [];
  for (const person of people) {
    if (!limitedViewer({ userId: person.id, role: person.role }) || !entity.workerSees) {
      seen.push(person.id);
      continue;
    }
    if (await recordSeen(tx, orgId, entityType, entityId, sql`${person.id}`)) seen.push(person.id);
  }
  return seen;
}

/**
 * Called after a note is written, in its transaction (the notifications feature tells the people it mentions).
 * A listener, not an import: notifications read this feature's visibility rule, so this one cannot import them.
 */
type NoteListener = (tx: Tx, orgId: number, note: { entityType: string; entityId: number; userId: number; note: string }) => Promise<void>;
const noteListeners: NoteListener[] = [];
export function onNoteAdded(listener: NoteListener) {
  if (!noteListeners.includes(listener)) noteListeners.push(listener);
}

/** The activity columns an item is made of: of the table, or of a subquery that selected them (the bell). */
type ItemSource = Record<'orgId' | 'id' | 'action' | 'changes' | 'note' | 'createdAt' | 'userId' | 'actorName', PgColumn>;

const authorColumns = { userId: users.id, firstName: users.firstName, lastName: users.lastName };

/** What the record's history and the bell both read of an activity, with who did it. */
const itemColumnsOf = <A extends ItemSource>(a: A): Pick<A, 'id' | 'action' | 'changes' | 'note' | 'createdAt' | 'actorName'> & typeof authorColumns => ({
  id: a.id,
  actorName: a.actorName,
  action: a.action,
  changes: a.changes,
  note: a.note,
  createdAt: a.createdAt,
  ...authorColumns,
});
const authorOf = (a: ItemSource) => and(eq(users.orgId, a.orgId), eq(users.id, a.userId));

const selectItems = (tx: ReadTx) => tx.select(itemColumnsOf(activities)).from(activities).leftJoin(users, authorOf(activities));
type ItemRow = Awaited<ReturnType<typeof selectItems>>[number];
const toItem = (r: ItemRow): ActivityItem => ({
  id: r.id,
  action: r.action,
  changes: r.changes ?? null,
  note: r.note,
  createdAt: r.createdAt.toISOString(),
  user: r.userId ? { id: r.userId, firstName: r.firstName ?? '', lastName: r.lastName ?? '' } : null,
  contractor: r.actorName ?? null,
});

/** A record's history and notes, newest first, with who did each; 404 for a record the viewer may not see. */
export async function listActivities(tx: ReadTx, orgId: number, viewer: Viewer, entityType: string, entityId: number): Promise<ActivityItem[]> {
  await requireVisible(tx, orgId, viewer, entityType, entityId);
  return readActivities(tx, orgId, entityType, entityId);
}

async function readActivities(tx: ReadTx, orgId: number, entityType: string, entityId: number): Promise<ActivityItem[]> {
  const rows = await selectItems(tx)
    .where(and(eq(activities.orgId, orgId), eq(activities.entityType, entityType), eq(activities.entityId, entityId)))
    .orderBy(desc(activities.createdAt), desc(activities.id))
    .limit(200);
  return rows.map(toItem);
}

/** A note on a record the viewer may see (404 otherwise); returns the record's history. */
export async function addNote(tx: Tx, orgId: number, viewer: Viewer, entityType: string, entityId: number, note: string) {
  await requireVisible(tx, orgId, viewer, entityType, entityId);
  await recordActivity(tx, orgId, { entityType, entityId, userId: viewer.userId, action: 'note', note });
  for (const listener of noteListeners) await listener(tx, orgId, { entityType, entityId, userId: viewer.userId, note });
  return readActivities(tx, orgId, entityType, entityId);
}

/**
 * A user's stored bell settings over the defaults, in SQL: `defaults || stored` (jsonb, the stored side wins),
 * so a topic added later starts on. The one rule for the settings screen and the bell. The defaults are a
 * constant, bound into the statement itself, so callers pass no value for them.
 */
const DEFAULTS = JSON.stringify(DEFAULT_NOTIFICATION_SETTINGS);
const withDefaults = (stored: SQLWrapper) => sql<NotificationSettings>`${DEFAULTS}::jsonb || coalesce(${stored}, '{}'::jsonb)`;

/** The user's bell settings, defaults filled in. */
export async function getNotificationSettings(tx: ReadTx, orgId: number, userId: number): Promise<NotificationSettings> {
  const [row] = await preparedRead(
    tx,
    'activity.notificationSettings',
    () =>
      tx
        .select({ settings: withDefaults(users.notificationSettings) })
        .from(users)
        .where(and(eq(users.orgId, param('orgId')), eq(users.id, param('userId')))),
    { orgId, userId },
  );
  if (!row) throw notFound('User');
  return row.settings;
}

export async function updateNotificationSettings(tx: Tx, orgId: number, userId: number, settings: NotificationSettings) {
  if (!(await writeUser(tx, orgId, userId, { notificationSettings: settings }))) throw notFound('User');
  return getNotificationSettings(tx, orgId, userId);
}

/** Each record type's topic ({ "work-order": "maintenance", … }), as JSON for the bell's filter in SQL. */
const TOPIC_OF_TYPE = JSON.stringify(Object.fromEntries(Object.entries(NOTIFICATION_TOPICS).flatMap(([topic, types]) => types.map((type) => [type, topic]))));

/** How many entries the bell shows. */
const BELL_SIZE = 15;
/** How many of the organisation's latest entries a worker's bell looks among for the ones they may see. */
const WORKER_BELL_WINDOW = 500;

/**
 * The organisation's latest activity as this user's bell shows it (their notification settings applied).
 * One statement (decision 017): the bell asks on every screen, so the user's settings (`withDefaults`) are
 * read inside it. It takes the newest entries first, then looks up their authors: PostgreSQL keeps one plan
 * for it (decision 019), and that plan must look up fifteen authors, not read all of an organisation's users.
 */
export async function listRecentActivities(tx: ReadTx, orgId: number, viewer: Viewer): Promise<RecentActivity[]> {
  const { userId } = viewer;
  // A worker's bell leaves out the records they may not see: a filter (and a kept statement) of its own.
  const workerId = limitedViewer(viewer);
  const build = () => {
    const stored = tx
      .select({ settings: users.notificationSettings })
      .from(users)
      .where(and(eq(users.orgId, param('orgId')), eq(users.id, param('userId'))));
    // A subquery of its own, so that it runs once per statement rather than once per row.
    const settings = sql`(select ${withDefaults(sql`(${stored})`)})`;
    // The columns an item needs (`ItemSource`) and the record it is about; two renamed, as the arguments take their names.
    const { orgId: org, id, action, changes, note, createdAt, userId: author, actorName, entityType, entityId } = activities;
    // A worker's bell looks among the organisation's latest entries only: where most entries are of records
    // they may not see, the scan for fifteen visible ones would otherwise read the whole history (decision 024).
    const windowStart = tx
      .select({ createdAt: activities.createdAt })
      .from(activities)
      .where(eq(activities.orgId, param('orgId')))
      .orderBy(desc(activities.createdAt), desc(activities.id))
      .limit(1)
      .offset(limitInText(WORKER_BELL_WINDOW - 1));
    const newest = tx
      .select({ orgId: org, id, action, changes, note, createdAt, userId: author, actorName, entityType, entityId })
      .from(activities)
      .where(
        and(
          eq(activities.orgId, param('orgId')),
          // A record type without a topic is always shown.
          sql`(${settings} ->> (${TOPIC_OF_TYPE}::jsonb ->> ${activities.entityType}))::boolean is not false`,
          sql`((${settings} ->> 'ownActions')::boolean or ${activities.userId} is null or ${activities.userId} <> ${param('userId')})`,
          visibleRecord(
            { orgId: activities.orgId, entityType: activities.entityType, entityId: activities.entityId },
            workerId ? param('workerId') : undefined,
          ),
          workerId ? gte(activities.createdAt, sql`coalesce((${windowStart}), '-infinity')`) : undefined,
        ),
      )
      .orderBy(desc(activities.createdAt), desc(activities.id))
      .limit(limitInText(BELL_SIZE))
      .as('newest');
    return tx
      .select({ ...itemColumnsOf(newest), entityType: newest.entityType, entityId: newest.entityId })
      .from(newest)
      .leftJoin(users, authorOf(newest))
      .orderBy(desc(newest.createdAt), desc(newest.id));
  };
  const rows = await preparedRead(tx, 'activity.recent', build, { orgId, userId, workerId }, { onePlan: true });
  return rows.map((r) => ({
    ...toItem(r),
    entityType: r.entityType,
    entityId: r.entityId,
    label: `${entities.get(r.entityType)?.label ?? r.entityType} #${r.entityId}`,
  }));
}
