import { Badge, Stack } from '@mantine/core';
import { uomCategoryInputSchema, type UomCategoryDto } from '../master-data.schema';
import { TextField } from './form-fields';
import { entityMessages, masterDataPage } from './master-data-screen';

/** /settings/uom-categories */
export default masterDataPage<UomCategoryDto>(['uom-categories', 'uom-category'], (t) => ({
  messages: entityMessages('UOM Category', 'UOM Categories'),
  columns: [
    { key: 'name', header: t('fields.name'), hideable: false },
    {
      key: 'isReferenceSet',
      header: t('uomType.reference'),
      defaultHidden: true,
      render: (r) =>
        r.isReferenceSet ? (
          <Badge variant="light">{t('yes')}</Badge>
        ) : (
          <Badge variant="light" color="gray">
            {t('no')}
          </Badge>
        ),
    },
  ],
  schema: uomCategoryInputSchema,
  defaults: (r) => ({ name: r?.name ?? '' }),
  fields: (form, { readOnly }) => (
    <Stack>
      <TextField form={form} name="name" label={t('fields.name')} required readOnly={readOnly} />
    </Stack>
  ),
}));
