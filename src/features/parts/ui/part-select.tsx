import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AsyncSelect, rememberOption, type SelectOption } from '../../../web/components';
import type { PartOption } from '../parts.schema';
import { PartCreateModal } from './part-form';

export const PART_OPTIONS_PATH = '/parts/get-parts-options';
export type { PartOption };

/**
 * A searchable part picker (10 at a time, fetched as you type); options carry salesPrice, SKU, stock and
 * unit. Its "Add New" entry (value 0) opens the creation dialog in place and selects the new part.
 */
export function PartSelect(props: {
  value: number | null | undefined;
  onChange(value: number | null, option: PartOption | null): void;
  label?: string;
  error?: string;
  initialOption?: SelectOption | null;
  withAsterisk?: boolean;
  disabled?: boolean;
  allowAddNew?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<SelectOption | null>(null);
  return (
    <>
      <AsyncSelect
        path={PART_OPTIONS_PATH}
        value={props.value}
        onChange={(v, o) => props.onChange(v, o as unknown as PartOption | null)}
        label={props.label}
        error={props.error}
        initialOption={created && created.value === props.value ? created : props.initialOption}
        onAddNew={props.allowAddNew !== false ? () => setCreating(true) : undefined}
        addNewLabel={t('select.addNew')}
        withAsterisk={props.withAsterisk}
        disabled={props.disabled}
        testId={props.testId}
      />
      {creating && (
        <PartCreateModal
          onClose={() => setCreating(false)}
          onCreated={(part) => {
            const option: PartOption = {
              value: part.id,
              label: part.name,
              salesPrice: part.salesPrice,
              skuCode: part.skuCode,
              type: part.type,
              quantityOnHand: part.quantityOnHand,
              unitOfMeasure: part.unitOfMeasure,
            };
            rememberOption(PART_OPTIONS_PATH, option as unknown as SelectOption);
            setCreated(option as unknown as SelectOption);
            setCreating(false);
            void queryClient.invalidateQueries({ queryKey: ['options', PART_OPTIONS_PATH] });
            void queryClient.invalidateQueries({ queryKey: ['parts'] });
            props.onChange(option.value, option);
          }}
        />
      )}
    </>
  );
}
