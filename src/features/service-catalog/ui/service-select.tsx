import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AsyncSelect, rememberOption, type SelectOption } from '../../../web/components';
import { useIsManager } from '../../../web/lib/app-data';
import { ServiceCreateModal } from './service-form';

export const SERVICE_OPTIONS_PATH = '/services/get-services-options';

/** A service option: value, label and price. */
export interface ServiceOption extends SelectOption {
  price: number;
}

/**
 * A searchable service picker (10 at a time, fetched as you type); options carry the price. Its "Add New"
 * entry (value 0, for managers) opens the creation dialog in place and selects the new service.
 */
export function ServiceSelect(props: {
  value: number | null | undefined;
  onChange(value: number | null, option: ServiceOption | null): void;
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
  const isManager = useIsManager();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ServiceOption | null>(null);
  return (
    <>
      <AsyncSelect
        path={SERVICE_OPTIONS_PATH}
        value={props.value}
        onChange={(v, o) => props.onChange(v, o as ServiceOption | null)}
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
        <ServiceCreateModal
          opened
          onClose={() => setCreating(false)}
          onCreated={(service) => {
            const option: ServiceOption = { value: service.id, label: service.title, price: service.price };
            rememberOption(SERVICE_OPTIONS_PATH, option);
            setCreated(option);
            setCreating(false);
            void queryClient.invalidateQueries({ queryKey: ['options', SERVICE_OPTIONS_PATH] });
            void queryClient.invalidateQueries({ queryKey: ['services'] });
            props.onChange(option.value, option);
          }}
        />
      )}
    </>
  );
}

