import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { assetCategoryInputSchema, type AssetCategoryDto } from '../master-data.schema';
import { TextField } from './form-fields';
import { ListPicker, type CategoryPickerProps } from './list-picker';
import './master-data-i18n';

/** An asset category picker; "Add New" (value 0) creates a category (short code and name) in place and selects it. */
export function AssetCategorySelect(props: CategoryPickerProps<AssetCategoryDto>) {
  const { t } = useTranslation('masterData');
  return (
    <ListPicker<AssetCategoryDto, { shortCode: string; name: string }>
      queryKey="asset-categories"
      listPath="/asset-categories/get-asset-categories"
      listKey="assetCategories"
      optionLabel={(c) => `${c.code} · ${c.name}`}
      {...props}
      create={
        props.allowAddNew === false
          ? undefined
          : {
              title: t('assetCategories.new'),
              addPath: '/asset-categories/add-asset-category',
              itemKey: 'assetCategory',
              schema: assetCategoryInputSchema,
              defaults: { shortCode: '', name: '' },
              success: 'Category added successfully',
              failure: 'Failed to add category',
              fields: (form) => (
                <Stack>
                  <TextField form={form as never} name="shortCode" label={t('fields.shortCode')} required testId="new-category-code" />
                  <TextField form={form as never} name="name" label={t('fields.name')} required testId="new-category-name" />
                </Stack>
              ),
            }
      }
    />
  );
}
