import { simpleTableReads } from './master-data-reads';
import type { z } from 'zod';
import { timeTrackingReasons } from '../../server/db/schema';
import { diffChanges, registerActivityEntity } from '../activity/activity.service';
import type { TimeTrackingReasonDto, timeTrackingReasonInputSchema } from './master-data.schema';
import { iso } from '../../server/db/simple-list';
import { orgRow } from '../../server/db/org-rows';
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

/** Time tracking reasons, sorted by name. */
export const { list: listTimeTrackingReasons, get: getTimeTrackingReason } = simpleTableReads({
  statement: 'timeTrackingReasons.list',
  table: timeTrackingReasons,
  columns,
  toDto,
  key: 'timeTrackingReasons',
  noun: 'Time tracking reason',
});

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
