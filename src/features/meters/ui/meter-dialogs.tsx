import { useState, type FormEvent } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { Alert, Autocomplete, Button, Checkbox, FileInput, Group, List, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DialogActions, FormField, DateTimeField, notifyError, notifySuccess, FormTextarea, FormTextInput } from '../../../web/components';
import { ApiError, api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { meterInputSchema, meterUpdateSchema, readingInputSchema, type MeterDto, type MeterKind } from '../meters.schema';
import './meters-i18n';

export type MeterList = { meters: MeterDto[] };

/** A dialog's form inside the asset drawer's form: its submit must not bubble (through the portal) to the drawer's. */
const ownSubmit = (submit: (e?: FormEvent) => Promise<void>) => (e: FormEvent) => {
  e.stopPropagation();
  void submit(e);
};

const UNITS = ['h', 'km', 'mi', 'cycles', 'starts', '°C', '°F', 'bar', 'psi', 'kWh', 'm³', 'L', 'mm/s', 'A', 'V'];

interface MeterFormValues {
  /** Only when adding: a meter stays on its asset. */
  assetId?: number;
  name: string;
  kind: MeterKind;
  unit: string;
  description: string;
}

/** Add (no `meter`) or edit a meter: name, kind (fixed once it has readings), unit, description. Managers only. */
export function MeterDialog({
  assetId,
  meter,
  onClose,
  onSaved,
}: {
  assetId: number;
  meter: MeterDto | null;
  onClose(): void;
  onSaved(list: MeterList): void;
}) {
  const { t } = useTranslation('meters');
  const form = useForm<MeterFormValues>({
    resolver: zodResolver((meter ? meterUpdateSchema : meterInputSchema) as never) as unknown as Resolver<MeterFormValues>,
    defaultValues: {
      ...(meter ? {} : { assetId }),
      name: meter?.name ?? '',
      kind: meter?.kind ?? 'counter',
      unit: meter?.unit ?? '',
      description: meter?.description ?? '',
    },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      if (meter) {
        await api.put(`/meters/update-meter/${meter.id}`, { ...values, version: meter.version });
        onSaved(await api.get<MeterList>('/meters/list-meters', { query: { assetId } }));
        notifySuccess(t('updated'));
      } else {
        onSaved(await api.post<MeterList>('/meters/add-meter', values));
        notifySuccess(t('added'));
      }
      onClose();
    } catch (err) {
      if (!applyApiErrors(err, form.setError)) notifyError(errorMessage(err, t(meter ? 'updateFailed' : 'addFailed')));
    }
  });
  const kindLocked = !!meter?.latestReading;
  return (
    <Modal opened onClose={onClose} title={meter ? t('edit') : t('newTitle')} centered>
      <form onSubmit={ownSubmit(submit)} noValidate data-testid="meter-form">
        <Stack>
          <FormTextInput form={form} name="name" label={t('name')} withAsterisk data-autofocus testId="meter-name" />
          <Controller
            control={form.control}
            name="kind"
            render={({ field }) => (
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('kind')}
                </Text>
                <SegmentedControl
                  value={field.value}
                  onChange={(v) => field.onChange(v)}
                  disabled={kindLocked}
                  data={(['counter', 'gauge'] as const).map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
                  data-testid="meter-kind"
                />
                <Text size="xs" c="dimmed">
                  {t(`kindHelp.${field.value}`)}
                </Text>
              </Stack>
            )}
          />
          <FormField
            form={form}
            name="unit"
            component={Autocomplete}
            label={t('unit')}
            withAsterisk
            placeholder={t('unitPlaceholder')}
            data={UNITS}
            data-testid="meter-unit"
            comboboxProps={{ withinPortal: true }}
          />
          <FormTextarea form={form} name="description" label={t('description')} minRows={2} testId="meter-description" />
          <DialogActions
            onCancel={onClose}
            submitLabel={meter ? t('common:actions.save') : t('add')}
            loading={form.formState.isSubmitting}
            testId="meter-save"
          />
        </Stack>
      </form>
    </Modal>
  );
}

/** Now in the reader's time zone as the date-time box holds it ('YYYY-MM-DD HH:mm:00'; decision 066). */
const localNow = () => {
  const d = new Date();
  d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)}:00`;
};
/** The box's local 'YYYY-MM-DD HH:mm:ss' as an instant (ISO; a date-time without a zone is local time). */
const instantOf = (local: string) => new Date(local.replace(' ', 'T')).toISOString();

interface ReadingFormValues {
  meterId: number;
  value: string;
  readAt: string;
  reset: boolean;
}

/** Enter a reading (everyone): value, when (now by default), and for a counter whether it was reset. */
export function ReadingDialog({ meter, onClose, onSaved }: { meter: MeterDto; onClose(): void; onSaved(list: MeterList): void }) {
  const { t } = useTranslation('meters');
  const form = useForm<ReadingFormValues>({
    resolver: zodResolver(readingInputSchema as never) as unknown as Resolver<ReadingFormValues>,
    defaultValues: { meterId: meter.id, value: '', readAt: localNow(), reset: false },
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async () => {
    const v = form.getValues();
    try {
      const res = await api.post<MeterList>('/meters/add-meter-reading', {
        meterId: meter.id,
        value: v.value,
        readAt: v.readAt ? instantOf(v.readAt) : undefined,
        reset: meter.kind === 'counter' ? v.reset : false,
      });
      onSaved(res);
      notifySuccess(t('readingAdded'));
      onClose();
    } catch (err) {
      if (!applyApiErrors(err, form.setError)) notifyError(errorMessage(err, t('readingFailed')));
    }
  });
  return (
    <Modal opened onClose={onClose} title={t('readingTitle', { name: meter.name })} centered>
      <form onSubmit={ownSubmit(submit)} noValidate data-testid="reading-form">
        <Stack>
          <FormTextInput
            form={form}
            name="value"
            label={`${t('value')} (${meter.unit})`}
            withAsterisk
            inputMode="decimal"
            autoComplete="off"
            data-autofocus
            testId="reading-value"
          />
          <Controller
            control={form.control}
            name="readAt"
            render={({ field }) => (
              <DateTimeField
                label={t('readAt')}
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? '')}
                error={errors.readAt?.message}
                testId="reading-readAt"
              />
            )}
          />
          {meter.kind === 'counter' && <Checkbox label={t('reset')} {...form.register('reset')} error={errors.reset?.message} data-testid="reading-reset" />}
          <DialogActions onCancel={onClose} submitLabel={t('enterReading')} loading={form.formState.isSubmitting} testId="reading-save" />
        </Stack>
      </form>
    </Modal>
  );
}

/** A file's text (FileReader: every browser, and jsdom in the UI tests). */
const readText = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(file);
  });

/** "rows.3.value" to line 3, column value (the import's per-cell refusals). */
export function importCells(err: ApiError) {
  return (err.issues ?? []).map((i) => {
    const m = /^rows\.(\d+)\.(.*)$/.exec(i.path);
    return m ? { row: Number(m[1]), column: m[2], message: i.message } : { row: 0, column: i.path, message: i.message };
  });
}

/** Import readings of this asset's meters from a CSV file; all rows or none, each refused cell listed. */
export function ImportDialog({ assetId, onClose, onSaved }: { assetId: number; onClose(): void; onSaved(list: MeterList): void }) {
  const { t } = useTranslation('meters');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: true; count: number } | { ok: false; cells: ReturnType<typeof importCells>; error: string } | null>(null);
  const run = async () => {
    if (!file) return;
    setBusy(true);
    setResult(null);
    try {
      const csv = await readText(file);
      const res = await api.post<MeterList & { imported: number }>('/meters/import-meter-readings', {
        assetId,
        csv,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      });
      setResult({ ok: true, count: res.imported });
      onSaved(res);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setResult({ ok: false, cells: importCells(err), error: err.message });
      else notifyError(errorMessage(err, t('importFailed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('importTitle')} centered size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('importHelp')}
        </Text>
        <FileInput
          label={t('importFile')}
          placeholder={t('chooseFile')}
          accept=".csv,text/csv"
          value={file}
          onChange={(f) => {
            setFile(f);
            setResult(null);
          }}
          clearable
          data-testid="import-file"
        />
        {result?.ok && (
          <Alert color="green" data-testid="import-result">
            {t('imported', { count: result.count })}
          </Alert>
        )}
        {result && !result.ok && (
          <Alert color="red" title={result.cells.length ? t('importRefused') : result.error} data-testid="import-result">
            <List size="sm" spacing={2} style={{ maxHeight: 240, overflowY: 'auto' }}>
              {result.cells.map((c, i) => (
                <List.Item key={i}>
                  {c.row > 0 && <b>{t('importLine', { row: c.row, column: c.column })}: </b>}
                  {c.message}
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-testid="import-close">
            {t('common:actions.close')}
          </Button>
          <Button onClick={() => void run()} disabled={!file} loading={busy} data-testid="import-run">
            {t('importRun')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
