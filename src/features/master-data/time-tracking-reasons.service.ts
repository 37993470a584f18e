import type { z } from 'zod';
import type { ReadTx, Tx } from '../../server/db/client';
import { timeTrackingReasons } from '../../server/db/schema';
import { notFound } from '../../server/http-error';
import { diffChanges, recordActivity, registerActivityEntity } from '../activity/activity.service';
import type { SimpleListQuery, TimeTrackingReasonDto, timeTrackingReasonInputSchema } from './master-data.schema';
import { iso, readSimpleTable } from '../../server/db/simple-list';
import { orgRow, deleteOrgRow, readOrgRow } from '../../server/db/org-rows';

registerActivityEntity('time-tracking-reason', timeTrackingReasons, 'Time tracking reason');

type Input = z.output<typeof timeTrackingReasonInputSchema>;

const columns = {
  id: timeTrackingReasons.id,
  name: timeTrackingReasons.name,
  type: timeTrackingReasons.type,
  isBlockingReason: timeTrackingReasons.isBlockingReason,
  createdAt: timeTrackingReasons.createdAt,
};
/** Both spellings of the blocking flag leave the server (DESIGN 11). */
const toDto = (r: { id: number; name: string; type: TimeTrackingReasonDto['type']; isBlockingReason: boolean; createdAt: Date }): TimeTrackingReasonDto => ({
  id: r.id,
  name: r.name,
  type: r.type,
  is_blocking_reason: r.isBlockingReason,
  isBlockingReason: r.isBlockingReason,
  createdAt: iso(r.createdAt),
});

export async function listTimeTrackingReasons(tx: ReadTx, orgId: number, query: SimpleListQuery) {
  const { rows, pagination } = await readSimpleTable(tx, 'timeTrackingReasons.list', orgId, query, timeTrackingReasons, columns);
  return { timeTrackingReasons: rows.map(toDto), pagination };
}

export async function getTimeTrackingReason(tx: Tx, orgId: number, id: number) {
  const row = await readOrgRow(tx, timeTrackingReasons, columns, orgId, id);
  if (!row) throw notFound('Time tracking reason');
  return toDto(row);
}

/** Creates one reason (the add route, and the import, decision 042); returns its id. */
export async function createTimeTrackingReason(tx: Tx, orgId: number, actorId: number, input: Input): Promise<number> {
  const [row] = await tx
    .insert(timeTrackingReasons)
    .values({ orgId, ...input })
    .returning({ id: timeTrackingReasons.id });
  await recordActivity(tx, orgId, { entityType: 'time-tracking-reason', entityId: row.id, userId: actorId, action: 'created' });
  return row.id;
}

export async function addTimeTrackingReason(tx: Tx, orgId: number, actorId: number, input: Input, query: SimpleListQuery) {
  const id = await createTimeTrackingReason(tx, orgId, actorId, input);
  return {
    message: 'Time tracking reason added successfully',
    timeTrackingReason: await getTimeTrackingReason(tx, orgId, id),
    ...(await listTimeTrackingReasons(tx, orgId, query)),
  };
}

export async function updateTimeTrackingReason(tx: Tx, orgId: number, actorId: number, id: number, input: Input) {
  const before = await getTimeTrackingReason(tx, orgId, id);
  await tx
    .update(timeTrackingReasons)
    .set(input)
    .where(orgRow(timeTrackingReasons, orgId, id));
  const changes = diffChanges(before as unknown as Record<string, unknown>, input, ['name', 'type', 'isBlockingReason']);
  if (Object.keys(changes).length)
    await recordActivity(tx, orgId, { entityType: 'time-tracking-reason', entityId: id, userId: actorId, action: 'updated', changes });
  return { message: 'Time tracking reason updated successfully', timeTrackingReason: await getTimeTrackingReason(tx, orgId, id) };
}

/** Refused (409) while logged labour uses the reason. */
export async function deleteTimeTrackingReason(tx: Tx, orgId: number, actorId: number, id: number, query: SimpleListQuery) {
  await getTimeTrackingReason(tx, orgId, id);
  await deleteOrgRow(tx, timeTrackingReasons, orgId, id, 'This time tracking reason is used by logged labor and cannot be deleted');
  await recordActivity(tx, orgId, { entityType: 'time-tracking-reason', entityId: id, userId: actorId, action: 'deleted' });
  return { message: 'Time tracking reason deleted successfully', ...(await listTimeTrackingReasons(tx, orgId, query)) };
}
