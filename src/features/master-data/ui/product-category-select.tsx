import { useTranslation } from 'react-i18next';
import { productCategoryInputSchema, type ProductCategoryDto } from '../master-data.schema';
import { TextField } from './form-fields';
import { ListPicker, type CategoryPickerProps } from './list-picker';
import './master-data-i18n';

/** A product category picker; "Add New" (value 0) creates a category in place and selects it. */
export function ProductCategorySelect(props: CategoryPickerProps<ProductCategoryDto>) {
  const { t } = useTranslation('masterData');
  return (
    <ListPicker<ProductCategoryDto, { name: string }>
      queryKey="product-categories"
      listPath="/product-categories/get-product-categories"
      listKey="productCategories"
      optionLabel={(c) => (c.parent ? `${c.parent.name} / ${c.name}` : c.name)}
      {...props}
      create={
        props.allowAddNew === false
          ? undefined
          : {
              title: t('productCategories.new'),
              addPath: '/product-categories/add-product-category',
              itemKey: 'productCategory',
              schema: productCategoryInputSchema,
              defaults: { name: '' },
              success: 'Category added successfully',
              failure: 'Failed to add category',
              fields: (form) => <TextField form={form as never} name="name" label={t('fields.name')} required testId="new-category-name" />,
            }
      }
    />
  );
}
