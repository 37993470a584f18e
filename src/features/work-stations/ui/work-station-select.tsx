import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AsyncSelect, rememberOption, type SelectOption } from '../../../web/components';
import { useIsManager } from '../../../web/lib/app-data';
import { WorkStationCreateModal } from './work-station-form';

export const WORK_STATION_OPTIONS_PATH = '/workstations/get-workstation-options';

/**
 * A searchable work station picker (fetched as you type). Its "Add New" entry (value 0, for managers, who
 * may create stations) opens the creation dialog in place and selects the new station.
 */
export function WorkStationSelect(props: {
  value: number | null | undefined;
  onChange(value: number | null, option: SelectOption | null): void;
  label?: string;
  error?: string;
  initialOption?: SelectOption | null;
  withAsterisk?: boolean;
  disabled?: boolean;
  /** Offer "Add New" (default true; shown to managers only). */
  allowAddNew?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isManager = useIsManager();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<SelectOption | null>(null);
  return (
    <>
      <AsyncSelect
        path={WORK_STATION_OPTIONS_PATH}
        value={props.value}
        onChange={props.onChange}
        label={props.label}
        error={props.error}
        initialOption={created && created.value === props.value ? created : props.initialOption}
        onAddNew={props.allowAddNew !== false && isManager ? () => setCreating(true) : undefined}
        addNewLabel={t('select.addNew')}
        withAsterisk={props.withAsterisk}
        disabled={props.disabled}
        testId={props.testId}
      />
      {creating && (
        <WorkStationCreateModal
          opened
          onClose={() => setCreating(false)}
          onCreated={(station) => {
            const option: SelectOption = { value: station.id, label: station.name, code: station.code };
            rememberOption(WORK_STATION_OPTIONS_PATH, option);
            setCreated(option);
            setCreating(false);
            void queryClient.invalidateQueries({ queryKey: ['options', WORK_STATION_OPTIONS_PATH] });
            void queryClient.invalidateQueries({ queryKey: ['work-stations'] });
            props.onChange(option.value, option);
          }}
        />
      )}
    </>
  );
}
