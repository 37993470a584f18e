import { useState } from 'react';
import { Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { useTranslation } from 'react-i18next';
import {
  ListTextFilter,
  RecordDrawer,
  formDrawerProps,
  RecordDrawerFooter,
  ServerListScreen,
  drawerListProps,
  activityQueryKey,
  removeWithConfirmation,
  useSaveHandler,
  useServerList,
  type Column,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { APP_DATA_KEY, useIsManager } from '../../../web/lib/app-data';
import { UOM_TYPES, uomInputSchema, type UomCategoryDto, type UomDto } from '../master-data.schema';
import { NumberField, SelectField, TextField } from './form-fields';
import { entityMessages, removeToasts, saveToasts, useMasterList } from './master-data-screen';

const messages = entityMessages('UOM', 'UOMs');

/** /settings/uom: units of measure, paged on the server, filter in the query string. */
export default function UomsPage() {
  const { t } = useTranslation('masterData');
  const isManager = useIsManager();
  const list = useServerList<UomDto, { name: 'text' }>({
    queryKey: 'uoms',
    path: '/uoms/get-uoms',
    listKey: 'uoms',
    filters: { name: 'text' },
    errorMessage: messages.fetch,
  });
  const [selected, setSelected] = useState<UomDto | null | undefined>(undefined);
  const columns: Column<UomDto>[] = [
    { key: 'name', header: t('fields.name'), hideable: false },
    { key: 'ratio', header: t('fields.ratio'), render: (u) => String(u.ratio) },
    { key: 'type', header: t('fields.type'), render: (u) => t(`uomType.${u.type}`) },
    { key: 'category', header: t('fields.category'), render: (u) => u.category?.name ?? t('na') },
  ];
  return (
    <ServerListScreen
      list={list}
      records={{ name: 'uoms', importable: true, open: setSelected, title: t('uoms.title'), addLabel: isManager ? t('uoms.add') : undefined }}
      columns={columns}
      filters={<ListTextFilter state={list.state} name="name" placeholder={t('uoms.filter')} debounceMs={500} />}
    >
      {selected !== undefined && (
        <UomDrawer key={selected?.id ?? 'new'} record={selected} readOnly={!isManager} onClose={() => setSelected(undefined)} {...drawerListProps(list)} />
      )}
    </ServerListScreen>
  );
}

function UomDrawer(props: {
  record: UomDto | null;
  readOnly: boolean;
  query: Record<string, unknown>;
  onClose(): void;
  onList(data: any): void;
  invalidate(): void;
}) {
  const { t } = useTranslation('masterData');
  const queryClient = useQueryClient();
  const { record } = props;
  const categories = useMasterList<UomCategoryDto>('uom-categories', '/uom-categories/get-uom-categories', 'uomCategories', 'Failed to fetch uom categories');
  const form = useForm<any, any, any>({
    resolver: zodResolver(uomInputSchema),
    mode: 'onTouched',
    defaultValues: {
      name: record?.name ?? '',
      categoryId: record?.categoryId ?? null,
      type: record?.type ?? null,
      ratio: record && record.type !== 'reference' ? record.ratio : '',
    },
  });
  const categoryId = form.watch('categoryId') as number | null;
  const type = form.watch('type') as string | null;
  const category = categories.rows.find((c) => c.id === categoryId);
  // the reference type is offered only when the category has none yet (or this unit is it)
  const referenceTaken = Boolean(category?.isReferenceSet) && !(record?.type === 'reference' && record.categoryId === categoryId);
  const typeChoices = UOM_TYPES.filter((v) => v !== 'reference' || !referenceTaken).map((v) => ({ value: v, label: t(`uomType.${v}`) }));

  const afterChange = () => {
    void queryClient.invalidateQueries({ queryKey: ['master-data', 'uom-categories'] });
    void queryClient.invalidateQueries({ queryKey: APP_DATA_KEY });
  };

  const save = useSaveHandler({
    form,
    id: record?.id,
    ...saveToasts(messages),
    update: async (id, values) => {
      await api.put(`/uoms/update-uom/${id}`, values);
      props.invalidate();
      void queryClient.invalidateQueries({ queryKey: activityQueryKey('uom', id) });
      afterChange();
      props.onClose();
    },
    add: async (values) => {
      props.onList(await api.post('/uoms/add-uom', values, { query: props.query as never }));
      afterChange();
      props.onClose();
    },
  });

  const remove = (id: number) =>
    removeWithConfirmation({
      ...removeToasts(messages),
      remove: () => api.del(`/uoms/delete-uom/${id}`, { query: props.query as never }),
      onRemoved: (list) => {
        props.onList(list);
        afterChange();
        props.onClose();
      },
    });

  return (
    <RecordDrawer
      {...formDrawerProps(form, save, 'uom', record?.id)}
      onClose={props.onClose}
      title={record ? record.name : t('uoms.new')}
      testId="master-data-drawer"
      tabs={[
        {
          value: 'overview',
          label: t('overview'),
          content: (
            <Stack>
              <TextField form={form} name="name" label={t('fields.name')} required readOnly={props.readOnly} />
              <SelectField
                form={form}
                name="categoryId"
                label={t('fields.category')}
                required
                numeric
                searchable
                readOnly={props.readOnly}
                data={categories.rows.map((c) => ({ value: String(c.id), label: c.name }))}
                onPicked={(id) => {
                  const next = categories.rows.find((c) => c.id === id);
                  const taken = Boolean(next?.isReferenceSet) && !(record?.type === 'reference' && record.categoryId === id);
                  if (taken && form.getValues('type') === 'reference') form.setValue('type', null);
                }}
              />
              <SelectField form={form} name="type" label={t('fields.type')} required readOnly={props.readOnly} data={typeChoices} />
              {type !== 'reference' && <NumberField form={form} name="ratio" label={t('fields.ratio')} required readOnly={props.readOnly} />}
            </Stack>
          ),
        },
      ]}
      footer={props.readOnly ? undefined : <RecordDrawerFooter onDelete={record && (() => void remove(record.id))} saving={form.formState.isSubmitting} />}
    />
  );
}
