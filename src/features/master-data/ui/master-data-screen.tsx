import { useEffect, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import type { z } from 'zod';
import { useTranslation } from 'react-i18next';
import {
  ClientDataTable,
  ImportButton,
  ListScreen,
  RecordDrawer,
  formDrawerProps,
  RecordDrawerFooter,
  activityQueryKey,
  notifyError,
  removeWithConfirmation,
  useSaveHandler,
  type Column,
} from '../../../web/components';
import { ApiError, api } from '../../../web/lib/api';
import { APP_DATA_KEY, useIsManager } from '../../../web/lib/app-data';
import './master-data-i18n';

/** The toasts of one entity (spec: '{Entity} added/updated/deleted successfully' and 'Failed to …'). */
export interface EntityMessages {
  fetch: string;
  add: string;
  update: string;
  remove: string;
  added: string;
  updated: string;
  deleted: string;
  confirmDelete: string;
}

/** A failure toast: the server's own words when it refused for a reason (409), else the spec's text. */
export function failureText(err: unknown, fallback: string) {
  return err instanceof ApiError && (err.status === 409 || (err.status === 400 && err.issues.length === 0)) && err.message ? err.message : fallback;
}

/** A master-data drawer's save toasts: one after every save, the server's reason when it refused. */
export const saveToasts = (messages: EntityMessages) => ({
  alwaysToast: true,
  errorText: failureText,
  messages: { added: messages.added, updated: messages.updated, addFailed: messages.add, updateFailed: messages.update },
});

/** A master-data drawer's delete: the question, then its toasts (the server's reason when it refused). */
export const removeToasts = (messages: EntityMessages) => ({
  confirm: messages.confirmDelete,
  success: messages.deleted,
  failure: messages.remove,
  errorText: failureText,
});

export function entityMessages(entity: string, plural: string): EntityMessages {
  const lower = entity.toLowerCase();
  return {
    fetch: `Failed to fetch ${plural.toLowerCase()}`,
    add: `Failed to add ${lower}`,
    update: `Failed to update ${lower}`,
    remove: `Failed to delete ${lower}`,
    added: `${entity} added successfully`,
    updated: `${entity} updated successfully`,
    deleted: `${entity} deleted successfully`,
    confirmDelete: `Are you sure you want to delete this ${lower}?`,
  };
}

/**
 * The props an entity's names decide: `plural` is its list key in kebab case (query key, import kind, route
 * prefix), `singular` its entity type; the texts are `<texts>.title`, `.add`, `.find` and `.new` (`texts`: the
 * list key in camel case unless given).
 */
export function entityScreen(t: (key: string) => string, plural: string, singular: string, texts?: string) {
  const listKey = plural.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
  const text = (k: string) => t(`${texts ?? listKey}.${k}`);
  return {
    queryKey: plural,
    importKind: plural,
    entityType: singular,
    title: text('title'),
    addLabel: text('add'),
    searchPlaceholder: text('find'),
    newTitle: text('new'),
    listKey,
    paths: {
      list: `/${plural}/get-${plural}`,
      add: `/${plural}/add-${singular}`,
      update: (id: number) => `/${plural}/update-${singular}/${id}`,
      remove: (id: number) => `/${plural}/delete-${singular}/${id}`,
    },
  };
}

/**
 * A whole master-data list from the server (these screens search and page on the client). Returns the rows
 * and `setList`, which takes an add/delete response (the refreshed list) and stores it.
 */
export function useMasterList<Row>(queryKey: string, path: string, listKey: string, fetchError: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['master-data', queryKey],
    queryFn: async ({ signal }) => {
      const body = await api.get<Record<string, unknown>>(path, { signal });
      return (body[listKey] ?? []) as Row[];
    },
  });
  // once per failed load (the fetch inside is retried, and several screens may read one list)
  const { isError, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError) notifyError(fetchError);
  }, [isError, errorUpdatedAt, fetchError]);
  const setList = (body: unknown) => {
    const rows = (body as Record<string, unknown>)?.[listKey];
    if (Array.isArray(rows)) queryClient.setQueryData(['master-data', queryKey], rows);
    else void queryClient.invalidateQueries({ queryKey: ['master-data', queryKey] });
    // forms elsewhere read master data from the preloaded application data
    void queryClient.invalidateQueries({ queryKey: APP_DATA_KEY });
  };
  const invalidate = () => {
    void queryClient.invalidateQueries({ queryKey: ['master-data', queryKey] });
    void queryClient.invalidateQueries({ queryKey: APP_DATA_KEY });
  };
  return { rows: query.data ?? [], loading: query.isFetching, failed: query.isError, refetch: () => void query.refetch(), setList, invalidate };
}

/** The props `entityScreen` gives. */
type EntityScreenProps = ReturnType<typeof entityScreen>;

/**
 * A simple master-data page (its route's default export): the screen of `entityScreen(t, plural, singular, texts)`
 * with what `screen(t)` gives (messages, columns, form), `t` of the masterData namespace.
 */
export function masterDataPage<Row extends { id: number; name: string }>(
  [plural, singular, texts]: [plural: string, singular: string, texts?: string],
  screen: (t: (key: string) => string) => Omit<MasterDataScreenProps<Row>, keyof EntityScreenProps>,
) {
  return function MasterDataPage() {
    const { t } = useTranslation('masterData');
    return <MasterDataScreen<Row> {...entityScreen(t, plural, singular, texts)} {...screen(t)} />;
  };
}

type AnyForm = UseFormReturn<any, any, any>;

export interface MasterDataScreenProps<Row extends { id: number; name: string }> {
  queryKey: string;
  entityType: string;
  title: string;
  addLabel: string;
  searchPlaceholder: string;
  newTitle: string;
  paths: { list: string; add: string; update: (id: number) => string; remove: (id: number) => string };
  listKey: string;
  columns: Column<Row>[];
  messages: EntityMessages;
  schema: z.ZodType<any, any>;
  defaults: (row: Row | null) => Record<string, unknown>;
  /** The form fields of the drawer. `rows` is the current list (for parent pickers and the like). */
  fields: (form: AnyForm, ctx: { record: Row | null; rows: Row[]; readOnly: boolean }) => ReactNode;
  searchText?: (row: Row) => string;
  /** The import kind of this list (decision 042): managers get an Import button opening the wizard with it chosen. */
  importKind?: string;
}

/**
 * The screen of a simple master-data list: client-side search and paging, a drawer that adds or edits, and
 * deletes with confirmation. Workers see the list; managers and admins change it.
 */
export function MasterDataScreen<Row extends { id: number; name: string }>(props: MasterDataScreenProps<Row>) {
  const list = useMasterList<Row>(props.queryKey, props.paths.list, props.listKey, props.messages.fetch);
  const isManager = useIsManager();
  const [selected, setSelected] = useState<Row | null | undefined>(undefined);
  return (
    <ListScreen
      title={props.title}
      addLabel={isManager ? props.addLabel : undefined}
      onAdd={() => setSelected(null)}
      onRefresh={list.refetch}
      refreshing={list.loading}
      actions={props.importKind && <ImportButton kind={props.importKind} />}
    >
      <ClientDataTable
        tableId={props.queryKey}
        exportList={props.queryKey}
        columns={props.columns}
        rows={list.rows}
        rowKey={(r) => r.id}
        loading={list.loading}
        failed={list.failed}
        onRetry={list.refetch}
        onRowClick={setSelected}
        searchPlaceholder={props.searchPlaceholder}
        searchText={props.searchText ?? ((r) => r.name)}
      />
      {selected !== undefined && (
        <MasterDataDrawer
          key={selected?.id ?? 'new'}
          {...props}
          record={selected}
          rows={list.rows}
          readOnly={!isManager}
          onClose={() => setSelected(undefined)}
          onList={list.setList}
          onSaved={list.invalidate}
        />
      )}
    </ListScreen>
  );
}

function MasterDataDrawer<Row extends { id: number; name: string }>(
  props: MasterDataScreenProps<Row> & { record: Row | null; rows: Row[]; readOnly: boolean; onClose(): void; onList(body: unknown): void; onSaved(): void },
) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { record, messages } = props;
  const form = useForm<any, any, any>({ resolver: zodResolver(props.schema as never), defaultValues: props.defaults(record), mode: 'onTouched' });

  const save = useSaveHandler({
    form,
    id: record?.id,
    ...saveToasts(messages),
    update: async (id, values) => {
      await api.put(props.paths.update(id), values);
      props.onSaved();
      void queryClient.invalidateQueries({ queryKey: activityQueryKey(props.entityType, id) });
      props.onClose();
    },
    add: async (values) => {
      props.onList(await api.post(props.paths.add, values));
      props.onClose();
    },
  });

  const remove = (id: number) =>
    removeWithConfirmation({
      ...removeToasts(messages),
      remove: () => api.del(props.paths.remove(id)),
      onRemoved: (list) => {
        props.onList(list);
        props.onClose();
      },
    });

  return (
    <RecordDrawer
      {...formDrawerProps(form, save, props.entityType, record?.id)}
      onClose={props.onClose}
      title={record ? record.name : props.newTitle}
      tabs={[{ value: 'overview', label: t('masterData:overview'), content: props.fields(form, { record, rows: props.rows, readOnly: props.readOnly }) }]}
      footer={props.readOnly ? undefined : <RecordDrawerFooter onDelete={record && (() => void remove(record.id))} saving={form.formState.isSubmitting} />}
      testId="master-data-drawer"
    />
  );
}
