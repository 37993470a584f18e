import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Checkbox, Select, SimpleGrid, Stack } from '@mantine/core';
import { zodResolver } from '../../../web/lib/form-resolver';
import { Controller, useForm, type Resolver, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField, DayField, areaCreateModal, FormTextarea, FormTextInput } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { AssetCategorySelect } from '../../master-data/ui/asset-category-select';
import { CustomerVendorSelect } from '../../customers-vendors/ui/customer-vendor-select';
import { LocationSelect } from '../../locations/ui/location-select';
import { ASSET_STATUSES, assetInputSchema, type AssetDto, type AssetInput, type AssetNode, type AssetStatus } from '../assets.schema';
import './assets-i18n';
import './asset-states-i18n';

export interface AssetFormValues {
  name: string;
  description: string;
  serial: string;
  assetBarcode: string;
  assetCode: string;
  /** 'YYYY-MM-DD'; null when cleared. */
  date: string | null;
  customerVendorId: number | null;
  assetCategoryId: number | null;
  status: AssetStatus;
  locationId: number | null;
  parentId: number | null;
  /** Stays up when its parent goes down (decision 079). */
  independent: boolean;
}

export type AssetForm = UseFormReturn<AssetFormValues, unknown, AssetInput>;

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

export const assetFormValues = (record?: AssetDto | null): AssetFormValues => ({
  name: record?.name ?? '',
  description: record?.description ?? '',
  serial: record?.serial ?? '',
  assetBarcode: record?.assetBarcode ?? '',
  assetCode: record?.assetCode ?? '',
  date: record?.date ?? today(),
  customerVendorId: record?.customerVendorId ?? null,
  assetCategoryId: record?.assetCategoryId ?? null,
  status: record?.status ?? 'Operational',
  locationId: record?.locationId ?? null,
  parentId: record?.parentId ?? null,
  independent: record?.independent ?? false,
});

/** The asset form, sharing the route's schema (and so its messages). */
export function useAssetForm(record?: AssetDto | null): AssetForm {
  return useForm<AssetFormValues, unknown, AssetInput>({
    resolver: zodResolver(assetInputSchema as never) as unknown as Resolver<AssetFormValues, unknown, AssetInput>,
    defaultValues: assetFormValues(record),
  });
}

/** Every asset field of the spec: name, description, serial, barcode, code, date, category, owner, status. */
export function AssetFields({ form, record }: { form: AssetForm; record?: AssetDto | null }) {
  const { t } = useTranslation('assets');
  const { t: tStates } = useTranslation('assetStates');
  const isManager = useIsManager();
  const errors = form.formState.errors;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <FormTextInput form={form} name="name" label={t('name')} withAsterisk testId="field-name" />
        {/* the day as the lists write it (DD/MM/YYYY), typed or picked, in both languages (no browser-locale date box) */}
        <DayField form={form} name="date" label={t('date')} testId="field-date" />
        <FormField
          form={form}
          name="assetCategoryId"
          component={AssetCategorySelect}
          label={t('category')}
          withAsterisk
          initialLabel={record?.AssetCategory ? `${record.AssetCategory.code} · ${record.AssetCategory.name}` : null}
          allowAddNew={isManager}
          testId="field-assetCategoryId"
        />
        <Controller
          control={form.control}
          name="status"
          render={({ field }) => (
            <Select
              label={t('status')}
              data={ASSET_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) }))}
              value={field.value}
              onChange={(v) => field.onChange(v ?? 'Operational')}
              allowDeselect={false}
              error={errors.status?.message}
              data-testid="field-status"
            />
          )}
        />
        <FormTextInput form={form} name="serial" label={t('serial')} testId="field-serial" />
        <FormTextInput form={form} name="assetCode" label={t('assetCode')} testId="field-assetCode" />
        <FormTextInput form={form} name="assetBarcode" label={t('assetBarcode')} testId="field-assetBarcode" />
        <FormField
          form={form}
          name="customerVendorId"
          component={CustomerVendorSelect}
          label={t('owner')}
          initialOption={record?.CustomerVendor ? { value: record.CustomerVendor.id, label: record.CustomerVendor.name } : null}
          clearable
          testId="field-customerVendorId"
        />
        <FormField
          form={form}
          name="locationId"
          component={LocationSelect}
          label={t('location')}
          initialOption={record?.Location ? { value: record.Location.id, label: record.Location.name } : null}
          testId="field-locationId"
        />
        <FormField form={form} name="parentId" component={AssetParentSelect} label={t('parent')} self={record?.id ?? null} />
      </SimpleGrid>
      <Checkbox label={tStates('independent')} {...form.register('independent')} data-testid="field-independent" />
      <FormTextarea form={form} name="description" label={t('description')} minRows={3} testId="field-description" />
    </Stack>
  );
}

/** The creation dialog opened by the asset select's "Add New" entry. */
export const AssetCreateModal = areaCreateModal('assets', useAssetForm, AssetFields, {
  size: 'xl',
  testId: 'asset-create-modal',
  create: (values) => api.post<{ asset: AssetDto }>('/assets/add-asset', values).then((r) => r.asset),
});

/** The ids of an asset and everything under it, from the tree's flat nodes. */
export function selfAndDescendants(nodes: Pick<AssetNode, 'id' | 'parentId'>[], self: number | null): Set<number> {
  const out = new Set<number>();
  if (self === null) return out;
  const children = new Map<number, number[]>();
  for (const n of nodes) if (n.parentId !== null) children.set(n.parentId, [...(children.get(n.parentId) ?? []), n.id]);
  const stack = [self];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

/**
 * The parent picker: every asset of the tree (get-asset-tree) but this one and those under it, so a cycle is
 * not offered (the server refuses one anyway, decision 072).
 */
function AssetParentSelect(props: { label: string; self: number | null; value: number | null; onChange(v: number | null): void; error?: string }) {
  const tree = useQuery({
    queryKey: ['assets', 'tree', null],
    queryFn: ({ signal }) => api.get<{ assets: AssetNode[] }>('/assets/get-asset-tree', { signal }),
  });
  const data = useMemo(() => {
    const nodes = tree.data?.assets ?? [];
    const excluded = selfAndDescendants(nodes, props.self);
    return nodes.filter((n) => !excluded.has(n.id)).map((n) => ({ value: String(n.id), label: `${n.assetId} · ${n.name}` }));
  }, [tree.data, props.self]);
  return (
    <Select
      label={props.label}
      data={data}
      value={props.value === null ? null : String(props.value)}
      onChange={(v) => props.onChange(v ? Number(v) : null)}
      searchable
      clearable
      error={props.error}
      data-testid="field-parentId"
    />
  );
}
