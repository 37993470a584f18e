import { useEffect } from 'react';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { zodResolver } from '../lib/form-resolver';
import { useForm, type DefaultValues, type FieldValues, type Resolver, type UseFormReturn } from 'react-hook-form';
import { api } from '../lib/api';
import { notifyError } from './notify';
import type { ListData } from './record-actions';

/** react-query's useQuery plus a toast when the fetch fails. */
export function useNotifiedQuery<T, K extends QueryKey = QueryKey>(options: UseQueryOptions<T, Error, T, K>, errorMessage: string) {
  const query = useQuery(options);
  useEffect(() => {
    if (query.isError) notifyError(errorMessage);
  }, [query.isError, errorMessage]);
  return query;
}

/** The props of a drawer opened by id over a server-paged list (null: adding). */
export interface ListDrawerProps {
  /** null: a new record. */
  id: number | null;
  onClose(): void;
  onCreated(id: number): void;
  /** The list's query (page, filters): adds and deletes answer with that page of the refreshed list. */
  query: Record<string, unknown>;
  onList(data: ListData): void;
  invalidate(): void;
}

/**
 * The record a drawer shows, fetched by id under [queryKey, 'one', id] as `{ [itemKey]: record }`, with a
 * toast when it fails. `record` is undefined when adding or still loading.
 */
export function useDrawerRecord<R>(opts: { queryKey: string; id: number | null; path(id: number): string; itemKey: string; errorMessage?: string }) {
  const key = [opts.queryKey, 'one', opts.id] as const;
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<Record<string, R>>(opts.path(opts.id as number), { signal }),
    enabled: opts.id !== null,
  });
  useEffect(() => {
    if (query.isError && opts.errorMessage) notifyError(opts.errorMessage);
  }, [query.isError, opts.errorMessage]);
  const record = opts.id !== null ? query.data?.[opts.itemKey] : undefined;
  return { record, key, loading: opts.id !== null && query.isLoading };
}

/** Resets the form to `toForm(record)` whenever another record (or a fresh copy) arrives. */
export function useFormFromRecord<V extends FieldValues, R>(form: UseFormReturn<V, any, any>, record: R | undefined, toForm: (record: R) => V) {
  useEffect(() => {
    if (record) form.reset(toForm(record));
    // only a new record resets the form
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [record]);
}

/** The drawer's form over a zod schema: `toForm(undefined)` when adding, reset to `toForm(record)` when the record arrives. */
export function useRecordForm<V extends FieldValues, R>(schema: unknown, record: R | undefined, toForm: (record: R | undefined) => V) {
  const form = useForm<V>({ resolver: zodResolver(schema as never) as unknown as Resolver<V>, defaultValues: toForm(undefined) as DefaultValues<V> });
  useFormFromRecord(form, record, toForm);
  return form;
}
