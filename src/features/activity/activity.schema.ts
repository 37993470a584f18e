import { z } from '../../shared/zod-setup';
import { requiredString } from '../../shared/validation';

export const activityParamsSchema = z.strictObject({
  entityType: z.string().regex(/^[a-z-]{2,40}$/, 'Unknown record type'),
  entityId: z.coerce.number({ error: 'Invalid id' }).int('Invalid id').min(1, 'Invalid id').max(2147483647, 'Invalid id'),
});

export const noteInputSchema = z.strictObject({
  note: requiredString('Note is required').max(5000, 'Note must be at most 5000 characters'),
});
export type NoteInput = z.infer<typeof noteInputSchema>;

/** One line of a record's history as the Note Logs tab shows it. */
export interface ActivityItem {
  id: number;
  action: 'created' | 'updated' | 'status' | 'deleted' | 'note' | 'attachment';
  changes: Record<string, { from: unknown; to: unknown }> | null;
  note: string | null;
  createdAt: string;
  user: { id: number; firstName: string; lastName: string } | null;
}

/** One line of the organisation's latest activity (the notifications bell). */
export interface RecentActivity extends ActivityItem {
  entityType: string;
  entityId: number;
  /** e.g. "User #3" */
  label: string;
}
