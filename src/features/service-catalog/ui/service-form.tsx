import { useState } from 'react';
import { ActionIcon, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { zodResolver } from '../../../web/lib/form-resolver';
import { Controller, useFieldArray, useForm, type Resolver, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField, areaCreateModal, RichTextField, useMoney, type SelectOption, FormTextInput } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { WorkStationSelect } from '../../work-stations/ui/work-station-select';
import { serviceInputSchema, type ServiceDto, type ServiceInput } from '../service-catalog.schema';
import './services-i18n';

export interface ServiceFormValues {
  title: string;
  price: string;
  operations: string;
  workStations: { workStationId: number | null; operation: string; timeRequired: string }[];
}

export type ServiceForm = UseFormReturn<ServiceFormValues, unknown, ServiceInput>;

export const serviceFormValues = (record?: ServiceDto | null): ServiceFormValues => ({
  title: record?.title ?? '',
  price: record ? String(record.price) : '',
  operations: record?.operations ?? '',
  workStations: record
    ? record.workStationDetails.map((d) => ({ workStationId: d.id, operation: d.operation, timeRequired: d.timeRequired }))
    : [{ workStationId: null, operation: '', timeRequired: '' }],
});

/** The service form, sharing the route's schema (and so its messages). */
export function useServiceForm(record?: ServiceDto | null): ServiceForm {
  return useForm<ServiceFormValues, unknown, ServiceInput>({
    resolver: zodResolver(serviceInputSchema as never) as unknown as Resolver<ServiceFormValues, unknown, ServiceInput>,
    defaultValues: serviceFormValues(record),
  });
}

/** Title, price, rich-text operations and the linked stations (each with its operation and time, in order). */
export function ServiceFields({ form, record }: { form: ServiceForm; record?: ServiceDto | null }) {
  const { t } = useTranslation('services');
  const errors = form.formState.errors;
  const money = useMoney();
  const rows = useFieldArray({ control: form.control, name: 'workStations' });
  const [known, setKnown] = useState<Record<number, SelectOption>>(() =>
    Object.fromEntries((record?.WorkStations ?? []).map((s) => [s.id, { value: s.id, label: s.name }])),
  );
  const stationsError = errors.workStations?.message ?? errors.workStations?.root?.message;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <FormTextInput form={form} name="title" label={t('name')} withAsterisk testId="field-title" />
        <FormTextInput form={form} name="price" label={t('price')} withAsterisk inputMode="decimal" leftSection={money.symbol} testId="field-price" />
      </SimpleGrid>
      <FormField form={form} name="operations" component={RichTextField} label={t('operations')} />
      <Text fw={600} size="sm">
        {t('stations')}
      </Text>
      {stationsError && (
        <Text c="red" size="sm" data-testid="stations-error">
          {stationsError}
        </Text>
      )}
      {rows.fields.map((row, i) => {
        const rowErrors = errors.workStations?.[i];
        return (
          <Paper key={row.id} withBorder p="sm" data-testid={`station-row-${i}`}>
            <Group align="flex-start" wrap="nowrap" gap="xs">
              <SimpleGrid cols={{ base: 1, sm: 3 }} style={{ flex: 1 }}>
                <Controller
                  control={form.control}
                  name={`workStations.${i}.workStationId`}
                  render={({ field }) => (
                    <WorkStationSelect
                      label={t('station')}
                      withAsterisk
                      value={field.value}
                      initialOption={field.value ? known[field.value] : null}
                      onChange={(v, option) => {
                        if (option) setKnown((k) => ({ ...k, [option.value]: option }));
                        field.onChange(v);
                      }}
                      error={rowErrors?.workStationId?.message}
                      testId={`field-station-${i}`}
                    />
                  )}
                />
                <TextInput
                  label={t('operation')}
                  withAsterisk
                  {...form.register(`workStations.${i}.operation`)}
                  error={rowErrors?.operation?.message}
                  data-testid={`field-operation-${i}`}
                />
                <TextInput
                  label={t('timeRequired')}
                  withAsterisk
                  placeholder={t('timePlaceholder')}
                  {...form.register(`workStations.${i}.timeRequired`)}
                  error={rowErrors?.timeRequired?.message}
                  data-testid={`field-time-${i}`}
                />
              </SimpleGrid>
              <Stack gap={4} mt={24}>
                <ActionIcon variant="subtle" aria-label={t('moveUp')} disabled={i === 0} onClick={() => rows.move(i, i - 1)}>
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon variant="subtle" aria-label={t('moveDown')} disabled={i === rows.fields.length - 1} onClick={() => rows.move(i, i + 1)}>
                  <IconArrowDown size={16} />
                </ActionIcon>
                <ActionIcon variant="subtle" color="red" aria-label={t('removeStation')} onClick={() => rows.remove(i)}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Stack>
            </Group>
          </Paper>
        );
      })}
      <Group>
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          onClick={() => rows.append({ workStationId: null, operation: '', timeRequired: '' })}
          data-testid="add-station-row"
        >
          {t('addStation')}
        </Button>
      </Group>
    </Stack>
  );
}

/** The creation dialog opened by the select's "Add New" entry: creates a service and hands it back. */
export const ServiceCreateModal = areaCreateModal('services', useServiceForm, ServiceFields, {
  size: 'xl',
  testId: 'service-create-modal',
  create: (values) => api.post<{ service: ServiceDto }>('/services/add-service', values).then((r) => r.service),
});
