import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  FileButton,
  Group,
  Image,
  Loader,
  Modal,
  NumberInput,
  Progress,
  Radio,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCamera, IconSignature, IconSubtask } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState, notifyError, notifySuccess, removeWithConfirmation, runWithToasts, useNotifiedQuery } from '../../../web/components';
import { ApiError, api, errorMessage } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { formatDateTime, formatNumber } from '../../../web/lib/format';
import { PASS_FAIL_VALUES, type IssuedStepDto, type WorkOrderProcedureDto } from '../../procedures/procedures.schema';
import { ProcedureSelect } from '../../procedures/ui/procedure-select';
import { workOrderDisplayId, type WorkOrderDto } from '../work-orders.schema';
import './procedure-labels';

type ProcedureAnswer = { procedure: WorkOrderProcedureDto | null };
export const procedureKey = (workOrderId: number) => ['work-orders', 'procedure', workOrderId] as const;

const PASS_FAIL_COLORS = { pass: 'teal', fail: 'red', flag: 'orange' } as const;

/**
 * The work order's Procedure tab, phone width first: progress "7 of 12", one card per step with a big control
 * of its kind, flagged answers in red with the follow-up button, photos and drawn signatures as uploads.
 */
export function ProcedureTab({ workOrderId, onChanged }: { workOrderId: number; onChanged(): void }) {
  const { t } = useTranslation('workOrderProcedure');
  const queryClient = useQueryClient();
  const isManager = useIsManager();
  const [picked, setPicked] = useState<number | null>(null);
  const key = procedureKey(workOrderId);
  const query = useNotifiedQuery(
    { queryKey: key, queryFn: ({ signal }) => api.get<ProcedureAnswer>(`/work-orders/get-work-order-procedure/${workOrderId}`, { signal }) },
    t('toast.failedFetch'),
  );
  const procedure = query.data?.procedure ?? null;
  const changed = (next: WorkOrderProcedureDto | null) => {
    queryClient.setQueryData(key, { procedure: next });
    onChanged();
  };

  if (query.isLoading) return <Loader size="sm" />;
  if (query.isError) return <Alert color="red">{t('toast.failedFetch')}</Alert>;

  if (!procedure) {
    const attach = () =>
      picked &&
      runWithToasts(() => api.post<ProcedureAnswer>(`/work-orders/attach-procedure/${workOrderId}`, { procedureId: picked }), t('toast.attached'), t('toast.failedAttach'), (res) => {
        setPicked(null);
        changed(res.procedure);
      });
    return (
      <Stack data-testid="procedure-tab">
        <EmptyState title={t('none')} description={isManager ? t('noneHint') : t('noneWorker')} />
        {isManager && (
          <Group align="flex-end" wrap="wrap">
            <div style={{ flex: '1 1 220px' }}>
              <ProcedureSelect value={picked} onChange={setPicked} testId="procedure-pick" />
            </div>
            <Button onClick={() => void attach()} disabled={!picked} data-testid="procedure-attach">
              {t('attach')}
            </Button>
          </Group>
        )}
      </Stack>
    );
  }

  const p = procedure.progress;
  const detach = () =>
    removeWithConfirmation({
      confirm: t('confirmDetach'),
      remove: () => api.del<ProcedureAnswer>(`/work-orders/detach-procedure/${workOrderId}`),
      success: t('toast.detached'),
      failure: t('toast.failedDetach'),
      onRemoved: () => changed(null),
    });
  return (
    <Stack gap="sm" data-testid="procedure-tab">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Title order={4} style={{ overflowWrap: 'anywhere' }}>
            {procedure.name}
          </Title>
          {procedure.description && (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
              {procedure.description}
            </Text>
          )}
        </div>
        {isManager && (
          <Button variant="subtle" color="red" size="compact-sm" onClick={() => void detach()} data-testid="procedure-detach">
            {t('detach')}
          </Button>
        )}
      </Group>
      <Stack gap={4}>
        <Group justify="space-between">
          <Text size="sm">{t('progressLabel')}</Text>
          <Text fw={700} data-testid="procedure-progress" aria-live="polite">
            {t('progress', { answered: p.answered, total: p.total })}
          </Text>
        </Group>
        <Progress value={p.total ? (100 * p.answered) / p.total : 0} size="lg" aria-label={t('progressLabel')} />
        <Group gap="xs">
          {p.requiredLeft > 0 && (
            <Badge color="yellow" variant="light" data-testid="procedure-required-left">
              {t('requiredLeft', { count: p.requiredLeft })}
            </Badge>
          )}
          {p.flagged > 0 && (
            <Badge color="red" variant="light" leftSection={<IconAlertTriangle size={12} />} data-testid="procedure-flagged">
              {t('flagged', { count: p.flagged })}
            </Badge>
          )}
        </Group>
      </Stack>
      {procedure.steps.map((step) =>
        step.kind === 'heading' ? (
          <Title order={5} key={step.id} mt="sm" data-testid="procedure-heading">
            {step.label}
          </Title>
        ) : (
          <StepCard key={step.id} workOrderId={workOrderId} step={step} onChanged={changed} />
        ),
      )}
    </Stack>
  );
}

/** One step: its label, its control, who answered and when, its flag and follow-up. */
function StepCard({ workOrderId, step, onChanged }: { workOrderId: number; step: IssuedStepDto; onChanged(next: WorkOrderProcedureDto | null): void }) {
  const { t } = useTranslation('workOrderProcedure');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (call: () => Promise<{ procedure: WorkOrderProcedureDto | null }>) => {
    setBusy(true);
    try {
      const res = await call();
      setError(null);
      onChanged(res.procedure);
    } catch (err) {
      const onValue = err instanceof ApiError ? err.issues.find((i) => i.path === 'value' || i.path === 'image')?.message : undefined;
      if (onValue) setError(onValue);
      else notifyError(errorMessage(err, t('toast.failedAnswer')));
    } finally {
      setBusy(false);
    }
  };
  const answer = (value: unknown) => send(() => api.put<{ procedure: WorkOrderProcedureDto }>(`/work-orders/answer-procedure-step/${workOrderId}`, { stepId: step.id, value }));
  const uploadImage = (file: Blob | null, fileName?: string) =>
    file && send(() => api.upload<{ procedure: WorkOrderProcedureDto }>(`/work-orders/add-step-image/${workOrderId}/step/${step.id}`, file, { field: 'image', fileName, timeoutMs: 60_000 }));
  const followUp = async () => {
    setBusy(true);
    try {
      const res = await api.post<{ procedure: WorkOrderProcedureDto; followUp: WorkOrderDto }>(`/work-orders/create-follow-up/${workOrderId}`, { stepId: step.id });
      notifySuccess(t('toast.followUpCreated', { id: res.followUp.workOrderId }));
      onChanged(res.procedure);
    } catch (err) {
      notifyError(errorMessage(err, t('toast.failedFollowUp')));
    } finally {
      setBusy(false);
    }
  };

  const answered = step.value !== null && step.value !== undefined;
  const testId = `procedure-step-${step.position}`;
  return (
    <Card withBorder padding="sm" data-testid={testId} data-flagged={step.flagged || undefined} style={step.flagged ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} style={{ overflowWrap: 'anywhere', flex: 1, minWidth: 0 }}>
            {step.label}
            {step.required && (
              <Text span c="red" aria-label={t('required')}>
                {' *'}
              </Text>
            )}
          </Text>
          {step.flagged && (
            <Badge color="red" leftSection={<IconAlertTriangle size={12} />} style={{ flexShrink: 0, overflow: 'visible' }} data-testid={`${testId}-flag`}>
              {step.kind === 'number' ? t('outOfRange') : t('flaggedBadge')}
            </Badge>
          )}
        </Group>
        <StepControl step={step} busy={busy} answer={(v) => void answer(v)} uploadImage={(f, n) => void uploadImage(f, n)} testId={testId} />
        {error && (
          <Text size="sm" c="red" role="alert" data-testid={`${testId}-error`}>
            {error}
          </Text>
        )}
        {answered && step.answeredBy && (
          <Text size="xs" c="dimmed">
            {t('answeredBy', { name: `${step.answeredBy.firstName} ${step.answeredBy.lastName}`.trim(), when: formatDateTime(step.answeredAt) })}
          </Text>
        )}
        {step.flagged && step.followUpOnFailure && !step.followUpWorkOrderId && (
          <Button color="red" variant="light" size="md" leftSection={<IconSubtask size={18} />} onClick={() => void followUp()} loading={busy} data-testid={`${testId}-follow-up`}>
            {t('createFollowUp')}
          </Button>
        )}
        {step.followUpWorkOrderId && (
          <Badge variant="outline" color="red" data-testid={`${testId}-follow-up-link`}>
            {t('followUp', { id: workOrderDisplayId(step.followUpWorkOrderId) })}
          </Badge>
        )}
      </Stack>
    </Card>
  );
}

/** The control of a step's kind, with touch-sized targets. */
function StepControl({ step, busy, answer, uploadImage, testId }: { step: IssuedStepDto; busy: boolean; answer(v: unknown): void; uploadImage(file: Blob | null, name?: string): void; testId: string }) {
  const { t } = useTranslation('workOrderProcedure');
  const [signing, setSigning] = useState(false);
  const clear = step.value !== null && (
    <Button variant="subtle" size="compact-sm" onClick={() => answer(null)} disabled={busy} data-testid={`${testId}-clear`}>
      {t('clear')}
    </Button>
  );
  switch (step.kind) {
    case 'checkbox':
      return <Checkbox size="lg" label={t('done')} checked={step.value === true} disabled={busy} onChange={(e) => answer(e.currentTarget.checked)} data-testid={`${testId}-input`} />;
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
          {typeof step.value === 'string' && <Image src={step.value} alt={t('signatureAlt', { label: step.label })} mah={120} w="auto" fit="contain" bg="white" radius="sm" />}
          <Group gap="xs">
            <Button variant="light" size="md" leftSection={<IconSignature size={18} />} onClick={() => setSigning(true)} loading={busy} data-testid={`${testId}-sign`}>
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

function rangeText(step: IssuedStepDto) {
  const unit = step.unit ? ` ${step.unit}` : '';
  if (step.min !== null && step.max !== null) return `${formatNumber(step.min)} – ${formatNumber(step.max)}${unit}`;
  if (step.min !== null) return `≥ ${formatNumber(step.min)}${unit}`;
  if (step.max !== null) return `≤ ${formatNumber(step.max)}${unit}`;
  return null;
}

/** A number: saved when the field is left or Enter is pressed (only when it changed). */
function NumberStep({ step, busy, answer, testId, clear }: { step: IssuedStepDto; busy: boolean; answer(v: unknown): void; testId: string; clear: ReactNode }) {
  const { t } = useTranslation('workOrderProcedure');
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
        rightSection={step.unit ? <Text size="sm" c="dimmed">{step.unit}</Text> : undefined}
        rightSectionWidth={step.unit ? Math.min(80, 16 + step.unit.length * 8) : undefined}
        description={range ? t('allowed', { range }) : undefined}
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
function TextStep({ step, busy, answer, testId }: { step: IssuedStepDto; busy: boolean; answer(v: unknown): void; testId: string }) {
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
  const { t } = useTranslation('workOrderProcedure');
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const drawing = useRef(false);
  const [empty, setEmpty] = useState(true);
  const prepare = (node: HTMLCanvasElement | null) => {
    canvas.current = node;
    if (!node) return;
    const ctx = node.getContext('2d');
    if (!ctx) return;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, node.width, node.height);
    ctx.lineWidth = 3;
    ctx.lineCap = 'round';
    ctx.strokeStyle = '#111';
  };
  const point = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - rect.left) * e.currentTarget.width) / rect.width, y: ((e.clientY - rect.top) * e.currentTarget.height) / rect.height };
  };
  const down = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    const ctx = e.currentTarget.getContext('2d');
    if (!ctx) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drawing.current = true;
    const p = point(e);
    ctx.beginPath();
    ctx.moveTo(p.x, p.y);
    ctx.lineTo(p.x + 0.1, p.y + 0.1);
    ctx.stroke();
    setEmpty(false);
  };
  const move = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    const ctx = e.currentTarget.getContext('2d');
    const p = point(e);
    ctx?.lineTo(p.x, p.y);
    ctx?.stroke();
  };
  const up = () => {
    drawing.current = false;
  };
  const reset = () => {
    prepare(canvas.current);
    setEmpty(true);
  };
  const save = () => canvas.current?.toBlob((blob) => blob && onSave(blob), 'image/png');
  return (
    <Modal opened={opened} onClose={onClose} title={t('signTitle')} centered size="lg" onExitTransitionEnd={() => setEmpty(true)}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('signHint')}
        </Text>
        <canvas
          ref={prepare}
          width={600}
          height={240}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerLeave={up}
          style={{ width: '100%', height: 'auto', aspectRatio: '5 / 2', border: '1px solid var(--mantine-color-default-border)', borderRadius: 4, touchAction: 'none', background: '#fff' }}
          aria-label={t('signHint')}
          data-testid="signature-canvas"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={reset}>
            {t('signClear')}
          </Button>
          <Button onClick={save} disabled={empty} data-testid="signature-save">
            {t('signSave')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
