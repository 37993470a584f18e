import type { FieldValues } from 'react-hook-form';
import { useListRecordActions, type ListRecordOptions } from './record-actions';
import { useVersionedRecord } from './stale-edit';

/**
 * A drawer's record over a server-paged list, kept at its latest version (assets, parts): useVersionedRecord
 * (Reload after a stale edit) with useListRecordActions, whose updates send the version shown and show the
 * record the server answers with (`{ [itemKey]: record }`).
 */
export function useVersionedListRecord<R extends { id: number; version: number }, V extends FieldValues, Out>(
  record: R | null,
  opts: Omit<ListRecordOptions<V, Out, Record<string, R>>, 'record' | 'body' | 'onStale' | 'onUpdated'> & {
    itemKey: string;
    fetch(id: number): Promise<R>;
    reset(record: R): void;
    /** The body without the version (default: the form's values). */
    body?(values: Out): object;
  },
) {
  const versioned = useVersionedRecord(record, opts);
  const { current, show, staleEdit } = versioned;
  const actions = useListRecordActions<V, Out, Record<string, R>>({
    ...opts,
    record: current,
    body: (values) => ({ ...(opts.body ? opts.body(values) : (values as object)), version: current?.version }),
    onStale: staleEdit.onStale,
    onUpdated: (res) => show(res[opts.itemKey]),
  });
  return { ...versioned, ...actions };
}
