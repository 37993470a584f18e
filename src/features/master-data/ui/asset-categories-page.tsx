import { Stack } from '@mantine/core';
import { assetCategoryInputSchema, type AssetCategoryDto } from '../master-data.schema';
import { TextField } from './form-fields';
import { entityMessages, masterDataPage } from './master-data-screen';

/** /settings/assets-category */
export default masterDataPage<AssetCategoryDto>(['asset-categories', 'asset-category'], (t) => ({
  messages: entityMessages('Category', 'Categories'),
  columns: [
    { key: 'code', header: t('fields.code'), hideable: false },
    { key: 'name', header: t('fields.name'), hideable: false },
  ],
  searchText: (r) => `${r.code} ${r.name}`,
  schema: assetCategoryInputSchema,
  defaults: (r) => ({ name: r?.name ?? '', shortCode: r?.code ?? '' }),
  fields: (form, { readOnly }) => (
    <Stack>
      <TextField form={form} name="shortCode" label={t('fields.shortCode')} required readOnly={readOnly} />
      <TextField form={form} name="name" label={t('fields.name')} required readOnly={readOnly} />
    </Stack>
  ),
}));
