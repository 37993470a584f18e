import { Modal, Select, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Controller, useForm, type DefaultValues, type FieldValues, type Path, type Resolver, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DialogActions, activityQueryKey, notifyError, notifySuccess } from '../../../web/components';
import { api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { zodResolver } from '../../../web/lib/form-resolver';
import { countInputSchema, transferInputSchema } from '../../stock/stock.schema';
import { useStoreroomOptions } from '../../stock/ui/storeroom-select';
import './parts-i18n';

/** After a transfer or a count: the part, its levels and moves are read again. */
function useStockChanged(partId: number) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ['stock'] });
    void queryClient.invalidateQueries({ queryKey: ['parts'] });
    void queryClient.invalidateQueries({ queryKey: activityQueryKey('part', partId) });
  };
}

type StockDialogKind = 'transfer' | 'count';

/**
 * A stock dialog's form: on submit `send` posts the values and answers the success toast; then the part's stock is
 * read again, the form emptied and the dialog closed. A refusal goes on the fields and to a toast
 * (`stockDialogs.<kind>Failed`).
 */
function useStockForm<V extends FieldValues>(
  kind: StockDialogKind,
  partId: number,
  schema: unknown,
  defaultValues: DefaultValues<V>,
  onClose: () => void,
  send: (values: V) => Promise<string>,
) {
  const { t } = useTranslation('parts');
  const changed = useStockChanged(partId);
  const form = useForm<V>({ resolver: zodResolver(schema as never) as unknown as Resolver<V>, defaultValues });
  const submit = form.handleSubmit(async (values) => {
    try {
      notifySuccess(await send(values));
      changed();
      form.reset();
      onClose();
    } catch (err) {
      applyApiErrors(err, form.setError);
      notifyError(errorMessage(err, t(`stockDialogs.${kind}Failed`)));
    }
  });
  return { kind, form, submit };
}

/** A storeroom chosen among the organisation's (the form holds its id as a string). */
function StoreroomField<V extends FieldValues>({ form, name, label, testId }: { form: UseFormReturn<V>; name: Path<V>; label: string; testId: string }) {
  const options = useStoreroomOptions();
  const data = (options.data ?? []).map((o) => ({ value: String(o.value), label: o.label }));
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <Select
          label={label}
          withAsterisk
          data={data}
          value={field.value || null}
          onChange={(v) => field.onChange(v ?? '')}
          error={fieldState.error?.message}
          comboboxProps={{ withinPortal: true }}
          data-testid={testId}
        />
      )}
    />
  );
}

/**
 * What both stock dialogs show: the storerooms (children), the quantity, a note and the buttons. `kind` gives the
 * title, which is also the submit's label (`stockDialogs.<kind>`), and the test ids (`<kind>-dialog`, `<kind>-quantity`,
 * `<kind>-note`, `<kind>-submit`); the quantity's label is `stockDialogs.<its field>`.
 */
function StockDialog<V extends { note: string }>(props: {
  kind: StockDialogKind;
  opened: boolean;
  onClose(): void;
  form: UseFormReturn<V>;
  submit(): Promise<void>;
  quantity: Path<V>;
  children: ReactNode;
}) {
  const { t } = useTranslation('parts');
  const { kind, form, quantity } = props;
  // asked for with the closed dialog, so the storerooms are there when it opens
  useStoreroomOptions();
  const errorOf = (name: Path<V>) => form.getFieldState(name, form.formState).error?.message;
  const note = 'note' as Path<V>;
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t(`stockDialogs.${kind}`)} centered>
      <Stack gap="sm" data-testid={`${kind}-dialog`}>
        {props.children}
        <TextInput
          label={t(`stockDialogs.${quantity}`)}
          withAsterisk
          inputMode="decimal"
          {...form.register(quantity)}
          error={errorOf(quantity)}
          data-testid={`${kind}-quantity`}
        />
        <TextInput label={t('stockDialogs.note')} {...form.register(note)} error={errorOf(note)} data-testid={`${kind}-note`} />
        <DialogActions
          onCancel={props.onClose}
          submitLabel={t(`stockDialogs.${kind}`)}
          onSubmit={() => void props.submit()}
          loading={form.formState.isSubmitting}
          testId={`${kind}-submit`}
        />
      </Stack>
    </Modal>
  );
}

type TransferValues = { partId: number; fromLocationId: string; toLocationId: string; quantity: string; note: string };

/** "Transfer": a quantity of the part from one storeroom to another (POST /api/stock/transfer-stock). */
export function TransferDialog({ partId, opened, onClose }: { partId: number; opened: boolean; onClose(): void }) {
  const { t } = useTranslation('parts');
  const defaults = { partId, fromLocationId: '', toLocationId: '', quantity: '', note: '' };
  const stock = useStockForm<TransferValues>('transfer', partId, transferInputSchema, defaults, onClose, async (values) => {
    await api.post('/stock/transfer-stock', values);
    return t('stockDialogs.transferred');
  });
  return (
    <StockDialog {...stock} opened={opened} onClose={onClose} quantity="quantity">
      <StoreroomField form={stock.form} name="fromLocationId" label={t('stockDialogs.from')} testId="transfer-from" />
      <StoreroomField form={stock.form} name="toLocationId" label={t('stockDialogs.to')} testId="transfer-to" />
    </StockDialog>
  );
}

type CountValues = { partId: number; locationId: string; countedQuantity: string; note: string };

/** "Count": what was counted at a storeroom; the difference is posted as a move (POST /api/stock/count-stock). */
export function CountDialog({ partId, opened, onClose }: { partId: number; opened: boolean; onClose(): void }) {
  const { t } = useTranslation('parts');
  const defaults = { partId, locationId: '', countedQuantity: '', note: '' };
  const stock = useStockForm<CountValues>('count', partId, countInputSchema, defaults, onClose, async (values) => {
    const res = await api.post<{ stockMove: unknown }>('/stock/count-stock', values);
    return res.stockMove ? t('stockDialogs.counted') : t('stockDialogs.countedNoDifference');
  });
  return (
    <StockDialog {...stock} opened={opened} onClose={onClose} quantity="countedQuantity">
      <StoreroomField form={stock.form} name="locationId" label={t('stockDialogs.location')} testId="count-location" />
    </StockDialog>
  );
}
