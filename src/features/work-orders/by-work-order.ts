/**
 * Rows of several work orders' lines (labour, parts, procedure steps) as one list per order, in the rows' order:
 * every id of `ids` has its list, empty when it has none. For reads of a page of orders in one statement instead
 * of one per order (My work).
 */
export function groupByWorkOrder<R extends { workOrderId: number | null }, T>(
  ids: readonly number[],
  rows: readonly R[],
  toDto: (row: R) => T,
): Map<number, T[]> {
  const lists = new Map<number, T[]>(ids.map((id) => [id, []]));
  for (const row of rows) if (row.workOrderId !== null) lists.get(row.workOrderId)?.push(toDto(row));
  return lists;
}
