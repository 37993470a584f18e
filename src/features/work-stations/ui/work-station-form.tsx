import { SimpleGrid, Stack } from '@mantine/core';
import { zodResolver } from '../../../web/lib/form-resolver';
import { useForm, type Resolver, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField, areaCreateModal, FormTextInput } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { TeamSelect } from '../../teams/ui/team-select';
import { workStationInputSchema, type WorkStationDto, type WorkStationInput } from '../work-stations.schema';
import './work-stations-i18n';

export interface WorkStationFormValues {
  code: string;
  name: string;
  city: string;
  teamId: number | null;
}

export type WorkStationForm = UseFormReturn<WorkStationFormValues, unknown, WorkStationInput>;

/** The station form, sharing the route's schema (and so its messages). */
export function useWorkStationForm(record?: WorkStationDto | null): WorkStationForm {
  return useForm<WorkStationFormValues, unknown, WorkStationInput>({
    resolver: zodResolver(workStationInputSchema as never) as unknown as Resolver<WorkStationFormValues, unknown, WorkStationInput>,
    defaultValues: { code: record?.code ?? '', name: record?.name ?? '', city: record?.city ?? '', teamId: record?.teamId ?? null },
  });
}

export function WorkStationFields({ form }: { form: WorkStationForm }) {
  const { t } = useTranslation('workStations');
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <FormTextInput form={form} name="code" label={t('code')} withAsterisk maxLength={40} testId="field-code" />
        <FormTextInput form={form} name="name" label={t('name')} withAsterisk testId="field-name" />
        <FormTextInput form={form} name="city" label={t('city')} withAsterisk testId="field-city" />
        <FormField form={form} name="teamId" component={TeamSelect} label={t('team')} withAsterisk testId="field-teamId" />
      </SimpleGrid>
    </Stack>
  );
}

/** The creation dialog opened by the select's "Add New" entry: creates a station and hands it back. */
export const WorkStationCreateModal = areaCreateModal('workStations', useWorkStationForm, WorkStationFields, {
  size: 'lg',
  testId: 'work-station-create-modal',
  create: (values) => api.post<{ workStation: WorkStationDto }>('/workstations/add-workstation', values).then((r) => r.workStation),
});
