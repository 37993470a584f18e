import type { ReactNode } from 'react';
import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Pagination } from '../../shared/pagination';
import { api, applyApiErrors, errorMessage } from '../lib/api';
import { confirmDelete } from './confirm';
import { activityQueryKey } from './note-logs';
import { notifyError, notifySuccess } from './notify';
import { isStaleEdit } from './stale-edit';

/** A refreshed list as adds and deletes return it: `{ <plural>: [...], pagination }`. */
export type ListData = { pagination: Pagination } & Record<string, unknown>;

/** The props of a drawer over a client-side row (the list passes the row; null: adding). */
export interface RowDrawerProps<R> {
  record: R | null;
  onClose(): void;
  /** The list's query (page, filters): adds and deletes answer with that page of the refreshed list. */
  query: Record<string, unknown>;
  onList(data: ListData): void;
  readOnly?: boolean;
}

/**
 * Asks "Are you sure …?" (confirmDelete), runs the delete, then `onRemoved` with its answer and the success
 * toast; a failure toasts `errorText(err, failure)` (default: the server's message, else `failure`).
 */
export async function removeWithConfirmation<T>(opts: {
  confirm: string;
  remove(): Promise<T>;
  success: string;
  failure: string;
  onRemoved?(result: T): void;
  errorText?(err: unknown, fallback: string): string;
}): Promise<void> {
  if (!(await confirmDelete(opts.confirm))) return;
  try {
    const result = await opts.remove();
    opts.onRemoved?.(result);
    notifySuccess(opts.success);
  } catch (err) {
    notifyError((opts.errorText ?? errorMessage)(err, opts.failure));
  }
}

/** The buttons under a record form: Delete (red, when `onDelete` is given) and the submit button (Save Changes). */
export function RecordDrawerFooter(props: {
  onDelete?: (() => void) | false | null;
  deleteLabel?: ReactNode;
  saving?: boolean;
  saveLabel?: ReactNode;
  deleteTestId?: string;
  saveTestId?: string;
  /** Buttons before Delete (e.g. Add Time). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      {props.children}
      {props.onDelete && (
        // Away from Save: first in the row, at its start (decision 066); a slip of the hand does not reach it.
        <Button
          color="red"
          variant="light"
          onClick={props.onDelete}
          data-testid={props.deleteTestId ?? 'delete-record'}
          style={{ order: -1, marginInlineEnd: 'auto' }}
        >
          {props.deleteLabel ?? t('actions.delete')}
        </Button>
      )}
      <Button type="submit" loading={props.saving} data-testid={props.saveTestId ?? 'save-record'}>
        {props.saveLabel ?? t('actions.save')}
      </Button>
    </>
  );
}

/** The seven toasts and the confirmation of a record drawer. */
export interface RecordMessages {
  added: string;
  updated: string;
  deleted: string;
  addFailed: string;
  updateFailed: string;
  deleteFailed: string;
  confirmDelete: string;
}

/** The messages under a feature namespace's usual keys: added, updated, deleted, addFailed, updateFailed, deleteFailed, confirmDelete. */
export function recordMessages(
  t: (key: 'added' | 'updated' | 'deleted' | 'addFailed' | 'updateFailed' | 'deleteFailed' | 'confirmDelete') => string,
): RecordMessages {
  return {
    added: t('added'),
    updated: t('updated'),
    deleted: t('deleted'),
    addFailed: t('addFailed'),
    updateFailed: t('updateFailed'),
    deleteFailed: t('deleteFailed'),
    confirmDelete: t('confirmDelete'),
  };
}

export interface ListRecordOptions<V extends FieldValues, Out, Updated> {
  form: UseFormReturn<V, unknown, Out>;
  /** The record being edited; null or undefined when adding. */
  record: { id: number } | null | undefined;
  /** The list's query (page, filters): adds and deletes answer with that page of the refreshed list. */
  query: Record<string, unknown>;
  onList(data: ListData): void;
  onClose(): void;
  /** The area's react-query key, refreshed after an update (e.g. 'assets'). */
  queryKey: string;
  /** The Note Logs record type, refreshed after an update (e.g. 'asset'). */
  entityType: string;
  paths: { add: string; update(id: number): string; remove(id: number): string };
  messages: RecordMessages;
  /** The request body (default: the form's values). */
  body?(values: Out): unknown;
  /** After an update: the server's answer (e.g. reset the form to the saved record). */
  onUpdated?(response: Updated): void;
  /** After an add or a delete (e.g. refresh a side panel). */
  onListChanged?(): void;
  /** A stale edit's 409 (useStaleEdit's `onStale`). */
  onStale?(): void;
  /** Toast a failure even when a field took the server's message (see useSaveHandler). */
  alwaysToast?: boolean;
  errorText?(err: unknown, fallback: string): string;
}

/**
 * Save and delete of a drawer over a server-paged list: an add or a delete stores the refreshed list and closes
 * the drawer; an update stays open and refreshes the lists and the Note Logs. Field errors from the server go
 * on the fields, other failures to a toast.
 */
export function useListRecordActions<V extends FieldValues, Out, Updated = unknown>(opts: ListRecordOptions<V, Out, Updated>) {
  const queryClient = useQueryClient();
  const { form, record, messages } = opts;
  const save = useSaveHandler({
    form,
    id: record?.id,
    messages,
    onStale: opts.onStale,
    alwaysToast: opts.alwaysToast,
    errorText: opts.errorText,
    update: async (id, values) => {
      const res = await api.put<Updated>(opts.paths.update(id), opts.body ? opts.body(values) : values);
      opts.onUpdated?.(res);
      void queryClient.invalidateQueries({ queryKey: [opts.queryKey] });
      void queryClient.invalidateQueries({ queryKey: activityQueryKey(opts.entityType, id) });
    },
    add: async (values) => {
      opts.onList(await api.post<ListData>(opts.paths.add, opts.body ? opts.body(values) : values, { query: opts.query as never }));
      opts.onListChanged?.();
      opts.onClose();
    },
  });
  const remove = () =>
    record
      ? removeWithConfirmation({
          confirm: messages.confirmDelete,
          remove: () => api.del<ListData>(opts.paths.remove(record.id), { query: opts.query as never }),
          success: messages.deleted,
          failure: messages.deleteFailed,
          onRemoved: (list) => {
            opts.onList(list);
            opts.onListChanged?.();
            opts.onClose();
          },
        })
      : Promise.resolve();
  return { save, remove };
}

/** Runs an action (a status change, an upload …): its success toast, then `after` with the answer; a failure toasts `errorMessage(err, failure)`. */
export async function runWithToasts<T>(run: () => Promise<T>, success: string, failure: string, after?: (result: T) => void): Promise<void> {
  try {
    const result = await run();
    notifySuccess(success);
    after?.(result);
  } catch (err) {
    notifyError(errorMessage(err, failure));
  }
}

/**
 * The submit handler of a form that adds or updates (`id` set: updating): `update` or `add` does the call and
 * its follow-up, then the success toast. Field errors from the server go on the fields; a failure toasts
 * `errorText(err, fallback)` when no field took it (or always, with `alwaysToast`).
 */
export function useSaveHandler<V extends FieldValues, Out>(opts: {
  form: UseFormReturn<V, any, Out>;
  id: number | null | undefined;
  update(id: number, values: Out): Promise<void>;
  add(values: Out): Promise<void>;
  messages: Pick<RecordMessages, 'added' | 'updated' | 'addFailed' | 'updateFailed'>;
  alwaysToast?: boolean;
  errorText?(err: unknown, fallback: string): string;
  /** A 409 "changed by someone else" (decision 025): the drawer shows useStaleEdit's alert instead of a toast. */
  onStale?(): void;
}) {
  const { form, id, messages } = opts;
  return form.handleSubmit(async (values) => {
    try {
      if (id !== null && id !== undefined) {
        await opts.update(id, values);
        notifySuccess(messages.updated);
      } else {
        await opts.add(values);
        notifySuccess(messages.added);
      }
    } catch (err) {
      if (opts.onStale && isStaleEdit(err)) return opts.onStale();
      const onFields = applyApiErrors(err, form.setError);
      if (!onFields || opts.alwaysToast) notifyError((opts.errorText ?? errorMessage)(err, id != null ? messages.updateFailed : messages.addFailed));
    }
  });
}
