import { useState, type ReactNode } from 'react';
import { Select } from '@mantine/core';
import { zodResolver } from '../../../web/lib/form-resolver';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm, type FieldValues, type Resolver, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ADD_NEW_VALUE, listSelectProps, RecordCreateModal, useDebouncedValue } from '../../../web/components';
import { api } from '../../../web/lib/api';

/** The props of a category picker built on ListPicker (AssetCategorySelect, ProductCategorySelect). */
export interface CategoryPickerProps<Row> {
  value: number | null | undefined;
  onChange(value: number | null, row: Row | null): void;
  label?: string;
  error?: string;
  withAsterisk?: boolean;
  disabled?: boolean;
  initialLabel?: string | null;
  /** Offer "Add New" (creating categories is for managers). */
  allowAddNew?: boolean;
  testId?: string;
}

/**
 * A picker over a small master-data list (`GET <list>?name=&pageSize=100`, searched on the server as you
 * type), with an optional "Add New" entry (value 0) that opens a creation dialog and selects the new record.
 */
export function ListPicker<Row extends { id: number; name: string }, V extends FieldValues>(props: {
  queryKey: string;
  listPath: string;
  listKey: string;
  label?: string;
  value: number | null | undefined;
  onChange(value: number | null, row: Row | null): void;
  error?: string;
  withAsterisk?: boolean;
  disabled?: boolean;
  testId?: string;
  optionLabel?: (row: Row) => string;
  /** The chosen row's label when it is not among the fetched rows. */
  initialLabel?: string | null;
  create?: {
    title: string;
    addPath: string;
    itemKey: string;
    schema: unknown;
    defaults: V;
    fields(form: UseFormReturn<V>): ReactNode;
    success: string;
    failure: string;
  };
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<Row | null>(null);
  const [creating, setCreating] = useState(false);
  const debounced = useDebouncedValue(search.trim(), 300);
  const label = props.optionLabel ?? ((r: Row) => r.name);
  const chosenLabel = chosen && chosen.id === props.value ? label(chosen) : props.initialLabel;
  const query = useQuery({
    queryKey: [props.queryKey, 'picker', debounced === chosenLabel ? '' : debounced],
    queryFn: ({ signal }) =>
      api.get<Record<string, Row[]>>(props.listPath, {
        query: { pageSize: 100, name: debounced === chosenLabel ? undefined : debounced || undefined },
        signal,
      }),
    staleTime: 30_000,
  });
  const rows = query.data?.[props.listKey] ?? [];
  const options = rows.map((r) => ({ value: String(r.id), label: label(r) }));
  if (props.value && !rows.some((r) => r.id === props.value) && chosenLabel) options.unshift({ value: String(props.value), label: chosenLabel });
  const data = [...(props.create ? [{ value: String(ADD_NEW_VALUE), label: t('select.addNew') }] : []), ...options];

  return (
    <>
      <Select
        {...listSelectProps(t, props, query.isFetching)}
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options: o }) => o}
        data={data}
        value={props.value ? String(props.value) : null}
        onChange={(v) => {
          if (v === String(ADD_NEW_VALUE)) {
            setCreating(true);
            return;
          }
          const row = rows.find((r) => String(r.id) === v) ?? null;
          setChosen(row);
          props.onChange(v ? Number(v) : null, row);
        }}
      />
      {creating && props.create && (
        <CreateDialog
          create={props.create}
          onClose={() => setCreating(false)}
          onCreated={(row: Row) => {
            setChosen(row);
            setCreating(false);
            void queryClient.invalidateQueries({ queryKey: [props.queryKey] });
            props.onChange(row.id, row);
          }}
        />
      )}
    </>
  );
}

function CreateDialog<Row, V extends FieldValues>({
  create,
  onClose,
  onCreated,
}: {
  create: NonNullable<Parameters<typeof ListPicker<{ id: number; name: string }, V>>[0]['create']>;
  onClose(): void;
  onCreated(row: Row): void;
}) {
  const form = useForm<V>({ resolver: zodResolver(create.schema as never) as unknown as Resolver<V>, defaultValues: create.defaults as never });
  return (
    <RecordCreateModal
      form={form as UseFormReturn<V, unknown, V>}
      title={create.title}
      testId="picker-create-modal"
      saveTestId="picker-create-save"
      create={(values) => api.post<Record<string, Row>>(create.addPath, values).then((res) => res[create.itemKey])}
      success={create.success}
      failure={create.failure}
      onClose={onClose}
      onCreated={onCreated}
    >
      {create.fields(form)}
    </RecordCreateModal>
  );
}
