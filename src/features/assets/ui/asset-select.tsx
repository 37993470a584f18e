import { lazy } from 'react';
import { Checkbox } from '@mantine/core';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { createRecordMultiSelect, createRecordSelect, FormField, type RecordSelectConfig, type SelectOption } from '../../../web/components';
import type { AssetDto } from '../assets.schema';
import { ASSET_OPTIONS_PATH } from './asset-filter-select';

// The creation form loads when "Add New" is chosen, not with every page that shows the picker.
const AssetCreateModal = lazy(() => import('./asset-form').then((m) => ({ default: m.AssetCreateModal })));

/** An asset option: value, label (the name) and the display id AS-0001. */
export interface AssetOption extends SelectOption {
  assetId: string;
}

const assetPicker: RecordSelectConfig<AssetDto, AssetOption> = {
  path: ASSET_OPTIONS_PATH,
  pageSize: 5,
  queryKey: 'assets',
  CreateModal: AssetCreateModal,
  toOption: (asset) => ({ value: asset.id, label: asset.name, assetId: asset.assetId }),
};

/**
 * A searchable asset picker (5 at a time, spec section 9, fetched as you type). Its "Add New" entry
 * (value 0) opens the creation dialog in place and selects the new asset.
 */
export const AssetSelect = createRecordSelect<AssetDto, AssetOption>(assetPicker);

/** Several assets; "Add New" creates one in place and adds it to the chosen values. */
export const AssetMultiSelect = createRecordMultiSelect<AssetDto, AssetOption>(assetPicker);

/**
 * A form's asset picker (work orders, maintenance orders and requests); with `down`, the "Asset is down"
 * checkbox under it once an asset is chosen (decision 079).
 */
export function AssetFormField<V extends FieldValues>(props: {
  form: UseFormReturn<V, any, any>;
  label: string;
  withAsterisk?: boolean;
  initialOption: SelectOption | null;
  disabled?: boolean;
  testId: string;
  down?: { label: string; testId: string };
}) {
  const { form, down, ...picker } = props;
  return (
    <>
      <FormField form={form} name={'assetId' as Path<V>} component={AssetSelect} {...picker} />
      {down && form.watch('assetId' as Path<V>) ? (
        <Checkbox mt="xs" label={down.label} {...form.register('assetDown' as Path<V>)} data-testid={down.testId} />
      ) : null}
    </>
  );
}
