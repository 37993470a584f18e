import type { ReactNode } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { FieldValues } from 'react-hook-form';
import { api } from '../lib/api';
import { activityQueryKey } from './note-logs';
import { removeWithConfirmation, runWithToasts, useSaveHandler, type ListData, type RecordMessages } from './record-actions';
import { useStaleEdit } from './stale-edit';
import { useDrawerRecord, useRecordForm, type ListDrawerProps } from './use-drawer-record';

export interface RecordPaths {
  get(id: number): string;
  add: string;
  update(id: number): string;
  remove(id: number): string;
}

/** The routes of a record by the API's naming: `/<area>/get-<noun>/:id`, `add-<noun>`, `update-<noun>/:id`, `delete-<noun>/:id`. */
export function recordPaths(area: string, noun: string): RecordPaths {
  return {
    get: (id) => `/${area}/get-${noun}/${id}`,
    add: `/${area}/add-${noun}`,
    update: (id) => `/${area}/update-${noun}/${id}`,
    remove: (id) => `/${area}/delete-${noun}/${id}`,
  };
}

export interface RecordDrawerOptions<R extends { id: number }, V extends FieldValues> {
  /** The area (e.g. 'work-orders'): the react-query key (the record is kept under [area, 'one', id]) and the routes' folder. */
  area: string;
  /** The record's name in its routes (e.g. 'work-order': `/work-orders/get-work-order/:id`; see recordPaths). */
  noun: string;
  /** The record's key in the server's answers (`{ workOrder: … }`). */
  itemKey: string;
  /** The Note Logs record type (e.g. 'work-order'). */
  entityType: string;
  /** The zod schema of the form (shared with the route). */
  schema: unknown;
  /** The form's values of a record; of `undefined` when adding. */
  toForm(record: R | undefined): V;
  /** The request body of an add or an update (default: the values the schema checked). */
  body?(checked: V, formValues: V): unknown;
  /** What an update sends so the server can tell an edit of an older copy (decision 025): `{ updatedAt }` or `{ version }`. */
  stamp(record: R | undefined): object;
  /** The toasts and the delete question; `fetchFailed` when the record cannot be loaded. */
  messages: RecordMessages & { fetchFailed: string };
  /** The drawer's title for a record ("WO-12"), "New …" when adding. */
  title(record: R): ReactNode;
  newTitle: ReactNode;
  /** The footer's buttons. */
  labels: { delete: ReactNode; save: ReactNode };
  /** Whether the Delete button shows (e.g. managers only); default true. */
  canDelete?: boolean;
  /** More queries to refresh after an add, an update, a delete or an action (e.g. the list's statistics). */
  alsoRefresh?: QueryKey[];
  /** Replaces the add (e.g. creating from another record); `addToList` is the usual add, `refresh` as returned. */
  add?(values: V, usual: { addToList(values: V): Promise<void>; refresh(id: number): void }): Promise<void>;
  /** Ask before closing with unsaved changes (RecordDrawer's `dirty`); default true. */
  guardDirty?: boolean;
  testId?: string;
}

type DrawerTextKey =
  | 'added'
  | 'updated'
  | 'deleted'
  | 'failedAdd'
  | 'failedUpdate'
  | 'failedDelete'
  | 'deleteConfirm'
  | 'failedFetchOne'
  | 'newTitle'
  | 'deleteButton'
  | 'save';

/** `messages`, `newTitle` and `labels` under a feature namespace's usual keys (added, failedAdd, deleteConfirm, failedFetchOne, newTitle, deleteButton, save …). */
export function drawerTexts(t: (key: DrawerTextKey) => string) {
  return {
    messages: {
      added: t('added'),
      updated: t('updated'),
      deleted: t('deleted'),
      addFailed: t('failedAdd'),
      updateFailed: t('failedUpdate'),
      deleteFailed: t('failedDelete'),
      confirmDelete: t('deleteConfirm'),
      fetchFailed: t('failedFetchOne'),
    },
    newTitle: t('newTitle'),
    labels: { delete: t('deleteButton'), save: t('save') },
  };
}

/**
 * The skeleton of a record drawer over a server-paged list (work orders, maintenance orders and requests, plans):
 * the record loaded by id, its form over the zod schema, Save (add or update, with the stale edit's 409 as an
 * alert and Reload), Delete with its confirmation, the toasts, and the props of `RecordDrawer` and
 * `RecordDrawerFooter`. The drawer keeps its own fields, tabs, header and actions.
 */
export function useRecordDrawer<R extends { id: number }, V extends FieldValues>(props: ListDrawerProps, opts: RecordDrawerOptions<R, V>) {
  const queryClient = useQueryClient();
  const { messages, itemKey } = opts;
  const paths = recordPaths(opts.area, opts.noun);
  const {
    record,
    key: recordKey,
    loading,
  } = useDrawerRecord<R>({ queryKey: opts.area, id: props.id, path: paths.get, itemKey, errorMessage: messages.fetchFailed });
  const form = useRecordForm(opts.schema, record, opts.toForm);

  const refreshOthers = () => opts.alsoRefresh?.forEach((queryKey) => void queryClient.invalidateQueries({ queryKey }));
  /** After a change of the record: the lists, the Note Logs and `alsoRefresh`. */
  const refresh = (id: number) => {
    props.invalidate();
    refreshOthers();
    void queryClient.invalidateQueries({ queryKey: activityQueryKey(opts.entityType, id) });
  };
  /** The server's fresh copy of the record (an update's or an action's answer) replaces the loaded one. */
  const setRecord = (fresh: R) => queryClient.setQueryData(recordKey, { [itemKey]: fresh });
  /** Fetches the record again (the form resets to it). */
  const reload = () => queryClient.refetchQueries({ queryKey: recordKey, exact: true });

  // Saved from an older copy (decision 025): Reload fetches the record again, which resets the form.
  const staleEdit = useStaleEdit(reload);
  const bodyOf = (values: V) => (opts.body ? opts.body(values, form.getValues()) : values);
  const addToList = async (values: V) => {
    const res = await api.post<ListData & Record<string, R>>(paths.add, bodyOf(values), { query: props.query as never });
    props.onList(res);
    refreshOthers();
    props.onCreated(res[itemKey].id);
  };
  const save = useSaveHandler({
    form,
    id: props.id,
    onStale: staleEdit.onStale,
    messages,
    update: async (id, values) => {
      const res = await api.put<Record<string, R>>(paths.update(id), { ...(bodyOf(values) as object), ...opts.stamp(record) });
      setRecord(res[itemKey]);
      refresh(id);
    },
    add: (values) => (opts.add ? opts.add(values, { addToList, refresh }) : addToList(values)),
  });
  const remove = (id: number) =>
    removeWithConfirmation({
      confirm: messages.confirmDelete,
      remove: () => api.del<ListData>(paths.remove(id), { query: props.query as never }),
      success: messages.deleted,
      failure: messages.deleteFailed,
      onRemoved: (list) => {
        props.onList(list);
        refreshOthers();
        props.onClose();
      },
    });
  /** A change of the loaded record through its own route (status, state, hold …), toasted; `after` gets the answer. */
  const act = <T>(run: (id: number) => Promise<T>, success: string, failure: string, after?: (result: T) => void) =>
    record ? runWithToasts(() => run(record.id), success, failure, after) : Promise.resolve();

  const errors = form.formState.errors;
  return {
    record,
    recordKey,
    loading,
    form,
    errors,
    save,
    remove,
    refresh,
    setRecord,
    reload,
    act,
    /** Spread into `RecordDrawer`; add `headerRight`, `tabs`, `sideTabs`, `footer`. */
    drawerProps: {
      opened: true,
      dirty: opts.guardDirty === false ? undefined : form.formState.isDirty,
      alert: staleEdit.alert,
      onClose: props.onClose,
      title: record ? opts.title(record) : props.id === null ? opts.newTitle : '',
      loading,
      errors,
      onSubmit: save,
      activity: { entityType: opts.entityType, entityId: props.id },
      testId: opts.testId,
    },
    /** Spread into `RecordDrawerFooter` (Delete when a record is loaded and `canDelete`, Save). */
    footerProps: {
      onDelete: record && opts.canDelete !== false ? () => void remove(record.id) : undefined,
      deleteLabel: opts.labels.delete,
      saving: form.formState.isSubmitting,
      saveLabel: opts.labels.save,
      deleteTestId: 'delete-button',
      saveTestId: 'save-button',
    },
  };
}
