import { SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { zodResolver } from '../../../web/lib/form-resolver';
import { Controller, useForm, type Resolver, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AsyncSelect, FormField, areaCreateModal, useMoney, optionOf, FormTextInput } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { ProductCategorySelect } from '../../master-data/ui/product-category-select';
import { PART_TYPES, partInputSchema, type PartDto, type PartInput, type PartType } from '../parts.schema';
import './parts-i18n';

export interface PartFormValues {
  name: string;
  type: PartType;
  skuCode: string;
  categoryId: number | null;
  salesPrice: string;
  unitOfMeasureId: number | null;
  purchaseUnitOfMeasureId: number | null;
  minimumQuantity: string;
  /** Only when adding: the opening stock (changes afterwards are stock adjustments). */
  quantityOnHand?: string;
}

export type PartForm = UseFormReturn<PartFormValues, unknown, PartInput>;

export const partFormValues = (record?: PartDto | null): PartFormValues => ({
  name: record?.name ?? '',
  type: record?.type ?? 'stockable',
  skuCode: record?.skuCode ?? '',
  categoryId: record?.categoryId ?? null,
  salesPrice: record ? String(record.salesPrice) : '',
  unitOfMeasureId: record?.unitOfMeasureId ?? null,
  purchaseUnitOfMeasureId: record?.purchaseUnitOfMeasureId ?? null,
  minimumQuantity: record ? String(record.minimumQuantity) : '0',
  ...(record ? {} : { quantityOnHand: '0' }),
});

/** The part form, sharing the route's schema (and so its messages). */
export function usePartForm(record?: PartDto | null): PartForm {
  return useForm<PartFormValues, unknown, PartInput>({
    resolver: zodResolver(partInputSchema as never) as unknown as Resolver<PartFormValues, unknown, PartInput>,
    defaultValues: partFormValues(record),
  });
}

const UOM_OPTIONS_PATH = '/uoms/get-uom-options';

/** Name, type, SKU, category, sales price, both units, minimum quantity (and opening stock when adding). */
export function PartFields({ form, record }: { form: PartForm; record?: PartDto | null }) {
  const { t } = useTranslation('parts');
  const isManager = useIsManager();
  const errors = form.formState.errors;
  const type = form.watch('type');
  const money = useMoney();
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <FormTextInput form={form} name="name" label={t('name')} withAsterisk testId="field-name" />
        <Controller
          control={form.control}
          name="type"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('type')}
              </Text>
              <SegmentedControl
                value={field.value}
                onChange={(v) => field.onChange(v)}
                data={PART_TYPES.map((p) => ({ value: p, label: t(`types.${p}`) }))}
                data-testid="field-type"
              />
              {errors.type?.message && (
                <Text c="red" size="xs">
                  {errors.type.message}
                </Text>
              )}
            </Stack>
          )}
        />
        <FormTextInput form={form} name="skuCode" label={t('skuCode')} testId="field-skuCode" />
        <FormField
          form={form}
          name="categoryId"
          component={ProductCategorySelect}
          label={t('category')}
          withAsterisk
          initialLabel={record?.category?.name ?? null}
          allowAddNew={isManager}
          testId="field-categoryId"
        />
        <FormTextInput
          form={form}
          name="salesPrice"
          label={t('salesPrice')}
          withAsterisk
          inputMode="decimal"
          leftSection={money.symbol}
          testId="field-salesPrice"
        />
        <FormTextInput form={form} name="minimumQuantity" label={t('minimumQuantity')} inputMode="decimal" testId="field-minimumQuantity" />
        {(['unitOfMeasure', 'purchaseUnitOfMeasure'] as const).map((unit) => (
          <FormField
            key={unit}
            form={form}
            name={`${unit}Id`}
            component={AsyncSelect}
            path={UOM_OPTIONS_PATH}
            label={t(unit)}
            withAsterisk
            initialOption={optionOf(record?.[unit])}
            testId={`field-${unit}Id`}
          />
        ))}
        {!record && type === 'stockable' && (
          <FormTextInput form={form} name="quantityOnHand" label={t('openingStock')} inputMode="decimal" testId="field-quantityOnHand" />
        )}
      </SimpleGrid>
    </Stack>
  );
}

/** Drops the opening stock of a consumable (it keeps none) before sending. */
export const partBody = (values: PartInput): PartInput => (values.type === 'consumable' ? { ...values, quantityOnHand: undefined } : values);

/** The creation dialog opened by the part select's "Add New" entry. */
export const PartCreateModal = areaCreateModal('parts', usePartForm, PartFields, {
  size: 'xl',
  testId: 'part-create-modal',
  create: (values) => api.post<{ part: PartDto }>('/parts/add-part', partBody(values)).then((r) => r.part),
});
