import { Modal, Select, Stack, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DialogActions, activityQueryKey, notifyError, notifySuccess } from '../../../web/components';
import { api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { zodResolver } from '../../../web/lib/form-resolver';
import { countInputSchema, transferInputSchema } from '../../stock/stock.schema';
import './parts-i18n';

type LocationOption = { value: number; label: string; isDefault: boolean };

/** The organisation's storerooms as Select options (default first). */
export function useLocationOptions() {
  return useQuery({
    queryKey: ['stock', 'location-options'],
    queryFn: ({ signal }) => api.get<LocationOption[]>('/stock/get-location-options', { signal }),
    staleTime: 60_000,
  });
}

/** After a transfer or a count: the part, its levels and moves are read again. */
function useStockChanged(partId: number) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ['stock'] });
    void queryClient.invalidateQueries({ queryKey: ['parts'] });
    void queryClient.invalidateQueries({ queryKey: activityQueryKey('part', partId) });
  };
}

type TransferValues = { partId: number; fromLocationId: string; toLocationId: string; quantity: string; note: string };

/** "Transfer": a quantity of the part from one storeroom to another (POST /api/stock/transfer-stock). */
export function TransferDialog({ partId, opened, onClose }: { partId: number; opened: boolean; onClose(): void }) {
  const { t } = useTranslation('parts');
  const options = useLocationOptions();
  const changed = useStockChanged(partId);
  const form = useForm<TransferValues>({
    resolver: zodResolver(transferInputSchema as never) as unknown as Resolver<TransferValues>,
    defaultValues: { partId, fromLocationId: '', toLocationId: '', quantity: '', note: '' },
  });
  const data = (options.data ?? []).map((o) => ({ value: String(o.value), label: o.label }));
  const submit = form.handleSubmit(async (values) => {
    try {
      await api.post('/stock/transfer-stock', values);
      notifySuccess(t('stockDialogs.transferred'));
      changed();
      form.reset();
      onClose();
    } catch (err) {
      applyApiErrors(err, form.setError);
      notifyError(errorMessage(err, t('stockDialogs.transferFailed')));
    }
  });
  const e = form.formState.errors;
  return (
    <Modal opened={opened} onClose={onClose} title={t('stockDialogs.transfer')} centered>
      <Stack gap="sm" data-testid="transfer-dialog">
        {(['fromLocationId', 'toLocationId'] as const).map((name) => (
          <Controller
            key={name}
            control={form.control}
            name={name}
            render={({ field }) => (
              <Select
                label={t(`stockDialogs.${name === 'fromLocationId' ? 'from' : 'to'}`)}
                withAsterisk
                data={data}
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? '')}
                error={e[name]?.message}
                comboboxProps={{ withinPortal: true }}
                data-testid={`transfer-${name === 'fromLocationId' ? 'from' : 'to'}`}
              />
            )}
          />
        ))}
        <TextInput
          label={t('stockDialogs.quantity')}
          withAsterisk
          inputMode="decimal"
          {...form.register('quantity')}
          error={e.quantity?.message}
          data-testid="transfer-quantity"
        />
        <TextInput label={t('stockDialogs.note')} {...form.register('note')} error={e.note?.message} data-testid="transfer-note" />
        <DialogActions
          onCancel={onClose}
          submitLabel={t('stockDialogs.transfer')}
          onSubmit={() => void submit()}
          loading={form.formState.isSubmitting}
          testId="transfer-submit"
        />
      </Stack>
    </Modal>
  );
}

type CountValues = { partId: number; locationId: string; countedQuantity: string; note: string };

/** "Count": what was counted at a storeroom; the difference is posted as a move (POST /api/stock/count-stock). */
export function CountDialog({ partId, opened, onClose }: { partId: number; opened: boolean; onClose(): void }) {
  const { t } = useTranslation('parts');
  const options = useLocationOptions();
  const changed = useStockChanged(partId);
  const form = useForm<CountValues>({
    resolver: zodResolver(countInputSchema as never) as unknown as Resolver<CountValues>,
    defaultValues: { partId, locationId: '', countedQuantity: '', note: '' },
  });
  const data = (options.data ?? []).map((o) => ({ value: String(o.value), label: o.label }));
  const submit = form.handleSubmit(async (values) => {
    try {
      const res = await api.post<{ stockMove: unknown }>('/stock/count-stock', values);
      notifySuccess(res.stockMove ? t('stockDialogs.counted') : t('stockDialogs.countedNoDifference'));
      changed();
      form.reset();
      onClose();
    } catch (err) {
      applyApiErrors(err, form.setError);
      notifyError(errorMessage(err, t('stockDialogs.countFailed')));
    }
  });
  const e = form.formState.errors;
  return (
    <Modal opened={opened} onClose={onClose} title={t('stockDialogs.count')} centered>
      <Stack gap="sm" data-testid="count-dialog">
        <Controller
          control={form.control}
          name="locationId"
          render={({ field }) => (
            <Select
              label={t('stockDialogs.location')}
              withAsterisk
              data={data}
              value={field.value || null}
              onChange={(v) => field.onChange(v ?? '')}
              error={e.locationId?.message}
              comboboxProps={{ withinPortal: true }}
              data-testid="count-location"
            />
          )}
        />
        <TextInput
          label={t('stockDialogs.countedQuantity')}
          withAsterisk
          inputMode="decimal"
          {...form.register('countedQuantity')}
          error={e.countedQuantity?.message}
          data-testid="count-quantity"
        />
        <TextInput label={t('stockDialogs.note')} {...form.register('note')} error={e.note?.message} data-testid="count-note" />
        <DialogActions
          onCancel={onClose}
          submitLabel={t('stockDialogs.count')}
          onSubmit={() => void submit()}
          loading={form.formState.isSubmitting}
          testId="count-submit"
        />
      </Stack>
    </Modal>
  );
}
