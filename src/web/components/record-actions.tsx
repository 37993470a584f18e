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

/** A refreshed list as adds and deletes return it: `{ <plural>: [...], pagination }`. */
export type ListData = { pagination: Pagination } & Record<string, unknown>;

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
        <Button color="red" variant="light" onClick={props.onDelete} data-testid={props.deleteTestId ?? 'delete-record'}>
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
export function recordMessages(t: (key: 'added' | 'updated' | 'deleted' | 'addFailed' | 'updateFailed' | 'deleteFailed' | 'confirmDelete') => string): RecordMessages {
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
}

/**
 * Save and delete of a drawer over a server-paged list: an add or a delete stores the refreshed list and closes
 * the drawer; an update stays open and refreshes the lists and the Note Logs. Field errors from the server go
 * on the fields, other failures to a toast.
 */
export function useListRecordActions<V extends FieldValues, Out, Updated = unknown>(opts: ListRecordOptions<V, Out, Updated>) {
  const queryClient = useQueryClient();
  const { form, record, messages } = opts;
  const save = form.handleSubmit(async (values) => {
    const body = opts.body ? opts.body(values) : values;
    try {
      if (record) {
        const res = await api.put<Updated>(opts.paths.update(record.id), body);
        opts.onUpdated?.(res);
        notifySuccess(messages.updated);
        void queryClient.invalidateQueries({ queryKey: [opts.queryKey] });
        void queryClient.invalidateQueries({ queryKey: activityQueryKey(opts.entityType, record.id) });
      } else {
        opts.onList(await api.post<ListData>(opts.paths.add, body, { query: opts.query as never }));
        notifySuccess(messages.added);
        opts.onListChanged?.();
        opts.onClose();
      }
    } catch (err) {
      if (!applyApiErrors(err, form.setError)) notifyError(errorMessage(err, record ? messages.updateFailed : messages.addFailed));
    }
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
