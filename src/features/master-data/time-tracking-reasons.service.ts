import type { z } from 'zod';
import type { ReadTx, Tx } from '../../server/db/client';
import { timeTrackingReasons } from '../../server/db/schema';
import { notFound } from '../../server/http-error';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import type { SimpleListQuery, TimeTrackingReasonDto, timeTrackingReasonInputSchema } from './master-data.schema';
import { iso, readSimpleTable } from '../../server/db/simple-list';
import { orgRow, readOrgRow } from '../../server/db/org-rows';
import { masterDataWrites } from './master-data-writes';

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

/** Creates (the add route, and the import, decision 042), adds, updates and deletes time tracking reasons. */
export const {
  create: createTimeTrackingReason,
  add: addTimeTrackingReason,
  update: updateTimeTrackingReason,
  remove: deleteTimeTrackingReason,
} = masterDataWrites({
  entityType: 'time-tracking-reason',
  table: timeTrackingReasons,
  get: getTimeTrackingReason,
  list: listTimeTrackingReasons,
  insert: async (tx, orgId, input: Input) => {
    const [row] = await tx
      .insert(timeTrackingReasons)
      .values({ orgId, ...input })
      .returning({ id: timeTrackingReasons.id });
    return row.id;
  },
  change: async (tx, orgId, id, input, before) => {
    await tx
      .update(timeTrackingReasons)
      .set(input)
      .where(orgRow(timeTrackingReasons, orgId, id));
    return diffChanges(before as unknown as Record<string, unknown>, input, ['name', 'type', 'isBlockingReason']);
  },
  keys: { added: 'timeTrackingReason', updated: ['timeTrackingReason'] },
  messages: {
    added: 'Time tracking reason added successfully',
    updated: 'Time tracking reason updated successfully',
    deleted: 'Time tracking reason deleted successfully',
  },
  // while logged labour uses the reason
  inUse: 'This time tracking reason is used by logged labor and cannot be deleted',
});
