import { useEffect } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { Loader, Modal, Select, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DialogActions,
  FormField,
  DateTimeField,
  DetailTable,
  notifyError,
  notifySuccess,
  removeWithConfirmation,
  useNotifiedQuery,
} from '../../../web/components';
import { api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { useAppData, useCurrentUser, useIsManager } from '../../../web/lib/app-data';
import { laborInputSchema, type LaborDto } from '../work-orders.schema';
import { formatDateTime, minutesBetween } from './labels';
import { formatMinutes } from '../../../web/lib/format';
import { fromPicker } from './picker-values';

type LaborList = { labors: LaborDto[] };
export const laborsKey = (workOrderId: number) => ['work-orders', 'labors', workOrderId] as const;

/** Labor tab: who, why, start, end, time spent; total; delete (own entries for workers). */
export function LaborTab({ workOrderId, onChanged }: { workOrderId: number; onChanged(): void }) {
  const { t } = useTranslation('workOrders');
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const isManager = useIsManager();
  const query = useNotifiedQuery(
    { queryKey: laborsKey(workOrderId), queryFn: ({ signal }) => api.get<LaborList>(`/work-orders/get-labors/${workOrderId}`, { signal }) },
    t('toast.failedLabors'),
  );
  const labors = query.data?.labors ?? [];
  const total = labors.reduce((sum, l) => sum + minutesBetween(l.startDate, l.endDate), 0);

  const remove = (labor: LaborDto) =>
    removeWithConfirmation({
      confirm: t('labor.confirmDelete'),
      remove: () => api.del<LaborList>(`/work-orders/delete-labor/${workOrderId}/labor/${labor.id}`),
      success: t('toast.laborDeleted'),
      failure: t('toast.failedDeleteLabor'),
      onRemoved: (res) => {
        queryClient.setQueryData(laborsKey(workOrderId), { labors: res.labors });
        onChanged();
      },
    });

  if (query.isLoading) return <Loader size="sm" />;
  return (
    <DetailTable
      testId="labor-tab"
      rows={labors}
      rowKey={(l) => l.id}
      rowTestId="labor-row"
      minWidth={560}
      emptyText={t('labor.empty')}
      columns={[
        {
          header: t('labor.worker'),
          cell: (l) =>
            l.external ? t('shares.asContractor', { ns: 'translation', name: l.external.name }) : `${l.Worker.firstName} ${l.Worker.lastName}`.trim(),
        },
        { header: t('labor.reason'), cell: (l) => l.TimeTrackReason.name },
        { header: t('labor.start'), cell: (l) => formatDateTime(l.startDate) },
        { header: t('labor.end'), cell: (l) => formatDateTime(l.endDate) },
        { header: t('labor.timeSpent'), cell: (l) => formatMinutes(minutesBetween(l.startDate, l.endDate)) },
      ]}
      canRemove={(l) => isManager || l.workerId === me?.id}
      onRemove={(l) => void remove(l)}
      total={`${t('labor.total')}: ${formatMinutes(total)}`}
      totalTestId="labor-total"
    />
  );
}

interface TimeForm {
  startTime: string | null;
  endTime: string | null;
  reason: string | null;
}

/** Add Time: start, end (12-hour picker, 5-minute steps) and a time tracking reason; the spec's two messages. */
export function AddTimeDialog({ opened, workOrderId, onClose, onAdded }: { opened: boolean; workOrderId: number; onClose(): void; onAdded(): void }) {
  const { t } = useTranslation('workOrders');
  const queryClient = useQueryClient();
  const reasons = (useAppData().data?.timeTrackReasons ?? []) as { id: number; name: string }[];
  const form = useForm<TimeForm>({
    resolver: zodResolver(laborInputSchema as never) as unknown as Resolver<TimeForm>,
    defaultValues: { startTime: null, endTime: null, reason: null },
  });
  useEffect(() => {
    if (opened) form.reset({ startTime: null, endTime: null, reason: null });
    // a fresh form each time the dialog opens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);

  const submit = form.handleSubmit(async () => {
    const v = form.getValues();
    try {
      const res = await api.post<{ labors: LaborDto[] }>(`/work-orders/add-labor/${workOrderId}`, {
        startTime: fromPicker(v.startTime),
        endTime: fromPicker(v.endTime),
        reason: Number(v.reason),
      });
      queryClient.setQueryData(laborsKey(workOrderId), { labors: res.labors });
      notifySuccess(t('toast.laborAdded'));
      onAdded();
      onClose();
    } catch (err) {
      if (!applyApiErrors(err, form.setError)) notifyError(errorMessage(err, t('toast.failedAddLabor')));
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('labor.dialogTitle')} centered>
      <form onSubmit={submit} noValidate data-testid="add-time-form">
        <Stack>
          {(['startTime', 'endTime'] as const).map((name) => (
            <FormField
              key={name}
              form={form}
              name={name}
              component={DateTimeField}
              label={t(name === 'startTime' ? 'labor.start' : 'labor.end')}
              required
              testId={`labor-${name}`}
            />
          ))}
          <FormField
            form={form}
            name="reason"
            component={Select}
            label={t('labor.reason')}
            withAsterisk
            data={reasons.map((r) => ({ value: String(r.id), label: r.name }))}
            searchable
            data-testid="labor-reason"
          />
          <DialogActions onCancel={onClose} submitLabel={t('labor.save')} loading={form.formState.isSubmitting} testId="labor-save" />
        </Stack>
      </form>
    </Modal>
  );
}
