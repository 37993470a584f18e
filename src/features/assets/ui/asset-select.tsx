import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AsyncSelect, rememberOption, type SelectOption } from '../../../web/components';
import { AssetCreateModal } from './asset-form';

export const ASSET_OPTIONS_PATH = '/assets/get-assets-options';

/** An asset option: value, label (the name) and the display id AS-0001. */
export interface AssetOption extends SelectOption {
  assetId: string;
}

/**
 * A searchable asset picker (5 at a time, spec section 9, fetched as you type). Its "Add New" entry
 * (value 0) opens the creation dialog in place and selects the new asset.
 */
export function AssetSelect(props: {
  value: number | null | undefined;
  onChange(value: number | null, option: AssetOption | null): void;
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
  const [created, setCreated] = useState<AssetOption | null>(null);
  return (
    <>
      <AsyncSelect
        path={ASSET_OPTIONS_PATH}
        pageSize={5}
        value={props.value}
        onChange={(v, o) => props.onChange(v, o as AssetOption | null)}
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
        <AssetCreateModal
          onClose={() => setCreating(false)}
          onCreated={(asset) => {
            const option: AssetOption = { value: asset.id, label: asset.name, assetId: asset.assetId };
            rememberOption(ASSET_OPTIONS_PATH, option);
            setCreated(option);
            setCreating(false);
            void queryClient.invalidateQueries({ queryKey: ['options', ASSET_OPTIONS_PATH] });
            void queryClient.invalidateQueries({ queryKey: ['assets'] });
            props.onChange(option.value, option);
          }}
        />
      )}
    </>
  );
}
