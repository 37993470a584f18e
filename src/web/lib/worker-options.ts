import type { UserDto } from '../../features/users/users.schema';

export type WorkerOption = { value: string; label: string };
export type WorkerOptionData = WorkerOption[] | { group: string; items: WorkerOption[] }[];

/** A worker's name as pickers show it (the e-mail until the person has a name). */
export const workerLabel = (w: Pick<UserDto, 'firstName' | 'lastName' | 'email'>) => `${w.firstName} ${w.lastName}`.trim() || w.email;

/**
 * Assignee options for a record about an asset: the people related to that asset (spec section 3, a user's
 * related_assets) come first under "Suggested", the others after them. Without an asset, or when nobody is
 * related to it, the plain list.
 */
export function suggestedWorkers(workers: UserDto[], assetId: number | null | undefined, labels: { suggested: string; others: string }): WorkerOptionData {
  const all = workers.map((w) => ({ value: String(w.id), label: workerLabel(w) }));
  if (!assetId) return all;
  const related = new Set(workers.filter((w) => (w.related_assets ?? []).some((a) => a.id === assetId)).map((w) => String(w.id)));
  if (related.size === 0) return all;
  return [
    { group: labels.suggested, items: all.filter((o) => related.has(o.value)) },
    { group: labels.others, items: all.filter((o) => !related.has(o.value)) },
  ].filter((g) => g.items.length > 0);
}
