import { Stack } from '@mantine/core';
import { productCategoryInputSchema, type ProductCategoryDto } from '../master-data.schema';
import { SelectField, TextField } from './form-fields';
import { entityMessages, masterDataPage } from './master-data-screen';

/** The ids of a category and everything under it: none of them can become its parent. */
function selfAndDescendants(rows: ProductCategoryDto[], id: number) {
  const out = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows) {
      if (r.parentId !== null && out.has(r.parentId) && !out.has(r.id)) {
        out.add(r.id);
        grew = true;
      }
    }
  }
  return out;
}

/** /settings/products-category */
export default masterDataPage<ProductCategoryDto>(['product-categories', 'product-category'], (t) => ({
  messages: entityMessages('Category', 'Categories'),
  columns: [
    { key: 'name', header: t('fields.name'), hideable: false },
    { key: 'parent', header: t('fields.parent'), render: (r) => r.parent?.name ?? '', defaultHidden: true },
  ],
  schema: productCategoryInputSchema,
  defaults: (r) => ({ name: r?.name ?? '', parentId: r?.parentId ?? null }),
  fields: (form, { record, rows, readOnly }) => {
    const excluded = record ? selfAndDescendants(rows, record.id) : new Set<number>();
    return (
      <Stack>
        <TextField form={form} name="name" label={t('fields.name')} required readOnly={readOnly} />
        <SelectField
          form={form}
          name="parentId"
          label={t('fields.parent')}
          numeric
          clearable
          searchable
          readOnly={readOnly}
          data={rows.filter((r) => !excluded.has(r.id)).map((r) => ({ value: String(r.id), label: r.parent ? `${r.parent.name} / ${r.name}` : r.name }))}
        />
      </Stack>
    );
  },
}));
