import { useEffect, useState, type ReactNode } from 'react';
import { Button, Checkbox, FileButton, Group, Image, NumberInput, Radio, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { IconCamera, IconSignature } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isStaleEdit } from './stale-edit';
import { notifyError } from './notify';
import { SignaturePad } from './signature-pad';
import { ApiError, errorMessage } from '../lib/api';
import { formatNumber } from '../lib/format';
import { registerTranslations } from '../i18n';
import { PASS_FAIL_VALUES, type IssuedStepDto } from '../../features/procedures/procedures.schema';

registerTranslations('procedureStep', {
  en: {
    allowed: 'Allowed: {{range}}',
    feedsMeter: 'Recorded on the meter {{meter}}',
    pass: 'Pass',
    fail: 'Fail',
    flag: 'Flag',
    done: 'Done',
    clear: 'Clear',
    staleAnswer: 'Someone else answered this step meanwhile: their answer is shown, yours was not saved.',
    takePhoto: 'Take or choose a photo',
    replacePhoto: 'Replace photo',
    sign: 'Sign',
    signAgain: 'Sign again',
    signTitle: 'Signature',
    signHint: 'Draw your signature in the box',
    signClear: 'Clear',
    signSave: 'Save signature',
    photoAlt: 'Photo for {{label}}',
    signatureAlt: 'Signature for {{label}}',
  },
  ar: {
    allowed: 'المسموح: {{range}}',
    feedsMeter: 'يُسجَّل على العدّاد {{meter}}',
    pass: 'نجاح',
    fail: 'فشل',
    flag: 'تنبيه',
    done: 'تم',
    clear: 'مسح',
    staleAnswer: 'أجاب شخص آخر عن هذه الخطوة في الأثناء: تظهر إجابته، ولم تُحفظ إجابتك.',
    takePhoto: 'التقط صورة أو اخترها',
    replacePhoto: 'استبدال الصورة',
    sign: 'توقيع',
    signAgain: 'التوقيع مجددًا',
    signTitle: 'التوقيع',
    signHint: 'ارسم توقيعك في المربع',
    signClear: 'مسح',
    signSave: 'حفظ التوقيع',
    photoAlt: 'صورة لـ {{label}}',
    signatureAlt: 'توقيع لـ {{label}}',
  },
});

/**
 * One procedure step's control, by its kind (the work order's Procedure tab, and the contractor's page of a
 * shared work order, decision 040): what the control needs of the step, not who answered it.
 */
export type StepView = Pick<IssuedStepDto, 'kind' | 'label' | 'value' | 'options' | 'unit' | 'min' | 'max' | 'meterName' | 'flagged'>;

const PASS_FAIL_COLORS = { pass: 'teal', fail: 'red', flag: 'orange' } as const;

/**
 * Sending a step's answer or image: busy while it runs, then `after` with the answer; a refusal of the value (or
 * image) is kept as the step's error, any other failure is a toast of `failed`. An answer made from an older copy
 * of the step (409, decision 025) is said at the step, and `stale` gets the step as it is now to show it.
 */
export function useStepAnswer<T>(after: (res: T) => unknown, failed: string, stale?: (current: unknown) => unknown) {
  const { t } = useTranslation('procedureStep');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async (call: () => Promise<T>) => {
    setBusy(true);
    try {
      const res = await call();
      setError(null);
      await after(res);
    } catch (err) {
      if (isStaleEdit(err)) {
        setError(t('staleAnswer'));
        await stale?.(err.body.current);
        return;
      }
      const onValue = err instanceof ApiError ? err.issues.find((i) => i.path === 'value' || i.path === 'image')?.message : undefined;
      if (onValue) setError(onValue);
      else notifyError(errorMessage(err, failed));
    } finally {
      setBusy(false);
    }
  };
  return { busy, setBusy, error, send };
}

/** The control of a step's kind, with touch-sized targets. */
export function StepControl({
  step,
  busy,
  answer,
  uploadImage,
  testId,
}: {
  step: StepView;
  busy: boolean;
  answer(v: unknown): void;
  uploadImage(file: Blob | null, name?: string): void;
  testId: string;
}) {
  const { t } = useTranslation('procedureStep');
  const [signing, setSigning] = useState(false);
  const clear = step.value !== null && (
    <Button variant="subtle" size="compact-sm" onClick={() => answer(null)} disabled={busy} data-testid={`${testId}-clear`}>
      {t('clear')}
    </Button>
  );
  switch (step.kind) {
    case 'checkbox':
      return (
        <Checkbox
          size="lg"
          label={t('done')}
          // the visible "Done" beside the step's name, heard with it (a list of steps is otherwise "Done, Done, Done")
          aria-label={`${step.label}: ${t('done')}`}
          checked={step.value === true}
          disabled={busy}
          onChange={(e) => answer(e.currentTarget.checked)}
          data-testid={`${testId}-input`}
        />
      );
    case 'pass-fail':
      return (
        <Group gap="xs" wrap="nowrap">
          <SegmentedControl
            fullWidth
            size="md"
            style={{ flex: 1 }}
            disabled={busy}
            value={typeof step.value === 'string' ? step.value : ''}
            color={typeof step.value === 'string' ? PASS_FAIL_COLORS[step.value as keyof typeof PASS_FAIL_COLORS] : undefined}
            onChange={answer}
            data={PASS_FAIL_VALUES.map((v) => ({ value: v, label: t(v) }))}
            data-testid={`${testId}-input`}
          />
          {clear}
        </Group>
      );
    case 'number':
      return <NumberStep step={step} busy={busy} answer={answer} testId={testId} clear={clear} />;
    case 'text':
      return <TextStep step={step} busy={busy} answer={answer} testId={testId} />;
    case 'choice':
      return (
        <Stack gap={4}>
          <Radio.Group value={typeof step.value === 'string' ? step.value : null} onChange={answer} aria-label={step.label}>
            <Stack gap="sm">
              {step.options.map((o) => (
                <Radio key={o} value={o} label={o} size="md" disabled={busy} data-testid={`${testId}-option`} />
              ))}
            </Stack>
          </Radio.Group>
          {clear && <div>{clear}</div>}
        </Stack>
      );
    case 'photo':
      return (
        <Stack gap="xs">
          {typeof step.value === 'string' && <Image src={step.value} alt={t('photoAlt', { label: step.label })} mah={220} w="auto" fit="contain" radius="sm" />}
          <Group gap="xs">
            <FileButton onChange={(f) => uploadImage(f)} accept="image/png,image/jpeg,image/webp" capture="environment">
              {(props) => (
                <Button {...props} variant="light" size="md" leftSection={<IconCamera size={18} />} loading={busy} data-testid={`${testId}-photo`}>
                  {step.value ? t('replacePhoto') : t('takePhoto')}
                </Button>
              )}
            </FileButton>
            {clear}
          </Group>
        </Stack>
      );
    case 'signature':
      return (
        <Stack gap="xs">
          {typeof step.value === 'string' && (
            <Image src={step.value} alt={t('signatureAlt', { label: step.label })} mah={120} w="auto" fit="contain" bg="white" radius="sm" />
          )}
          <Group gap="xs">
            <Button
              variant="light"
              size="md"
              leftSection={<IconSignature size={18} />}
              onClick={() => setSigning(true)}
              loading={busy}
              data-testid={`${testId}-sign`}
            >
              {step.value ? t('signAgain') : t('sign')}
            </Button>
            {clear}
          </Group>
          <SignatureDialog
            opened={signing}
            onClose={() => setSigning(false)}
            onSave={(blob) => {
              setSigning(false);
              uploadImage(blob, 'signature.png');
            }}
          />
        </Stack>
      );
    default:
      return null;
  }
}

function rangeText(step: StepView) {
  const unit = step.unit ? ` ${step.unit}` : '';
  if (step.min !== null && step.max !== null) return `${formatNumber(step.min)} – ${formatNumber(step.max)}${unit}`;
  if (step.min !== null) return `≥ ${formatNumber(step.min)}${unit}`;
  if (step.max !== null) return `≤ ${formatNumber(step.max)}${unit}`;
  return null;
}

/** A number: saved when the field is left or Enter is pressed (only when it changed). */
function NumberStep({ step, busy, answer, testId, clear }: { step: StepView; busy: boolean; answer(v: unknown): void; testId: string; clear: ReactNode }) {
  const { t } = useTranslation('procedureStep');
  const stored = typeof step.value === 'number' ? step.value : '';
  const [value, setValue] = useState<number | string>(stored);
  useEffect(() => setValue(stored), [stored]);
  const commit = () => {
    if (value === stored) return;
    answer(value === '' ? null : typeof value === 'number' ? value : value);
  };
  const range = rangeText(step);
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <NumberInput
        style={{ flex: 1 }}
        size="md"
        aria-label={step.label}
        value={value}
        onChange={setValue}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), commit())}
        rightSection={
          step.unit ? (
            <Text size="sm" c="dimmed">
              {step.unit}
            </Text>
          ) : undefined
        }
        rightSectionWidth={step.unit ? Math.min(80, 16 + step.unit.length * 8) : undefined}
        description={
          [range ? t('allowed', { range }) : '', step.meterName ? t('feedsMeter', { meter: step.meterName }) : ''].filter(Boolean).join(' · ') || undefined
        }
        error={step.flagged || undefined}
        disabled={busy}
        inputMode="decimal"
        data-testid={`${testId}-input`}
      />
      {clear}
    </Group>
  );
}

/** A text: saved when the field is left (only when it changed). */
function TextStep({ step, busy, answer, testId }: { step: StepView; busy: boolean; answer(v: unknown): void; testId: string }) {
  const stored = typeof step.value === 'string' ? step.value : '';
  const [value, setValue] = useState(stored);
  useEffect(() => setValue(stored), [stored]);
  return (
    <Textarea
      size="md"
      autosize
      minRows={2}
      aria-label={step.label}
      value={value}
      onChange={(e) => setValue(e.currentTarget.value)}
      onBlur={() => value !== stored && answer(value.trim() === '' ? null : value)}
      disabled={busy}
      data-testid={`${testId}-input`}
    />
  );
}

/** Draws a signature with a finger, pen or mouse on a canvas; hands it back as a PNG. */
export function SignatureDialog({ opened, onClose, onSave }: { opened: boolean; onClose(): void; onSave(png: Blob): void }) {
  const { t } = useTranslation('procedureStep');
  return (
    <SignaturePad
      opened={opened}
      onClose={onClose}
      onSave={onSave}
      labels={{ title: t('signTitle'), hint: t('signHint'), clear: t('signClear'), save: t('signSave') }}
    />
  );
}
