import { useEffect, useMemo, useRef, useState } from 'react';
import { ActionIcon, Badge, useDirection, Box, Button, Card, Checkbox, Group, Image, NumberInput, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconArrowLeft, IconCamera, IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../web/lib/format';
import type { WorkOrderStatus } from '../../work-orders/work-orders.schema';
import type { IssuedStepDto } from '../../procedures/procedures.schema';
import { myWorkDb, type CachedWorkOrder } from './my-work-db';
import { queueAnswer, queueNote, queueParts, queuePhoto, queueStatus, setTimerReason, startTimer, stopTimer, useLive } from './my-work-sync';
import type { OutboxItem } from './outbox';
import { NoticeList } from './notice-list';
import { SyncIndicator, TOUCH } from './sync-indicator';

const big = { size: 'lg', h: TOUCH + 8 } as const;

function elapsed(ms: number) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function TimerCard({ order, reasons }: { order: CachedWorkOrder; reasons: { id: number; name: string }[] }) {
  const { t } = useTranslation('myWork');
  const timer = useLive(async () => (await myWorkDb().timers.get(order.id)) ?? null, [order.id]);
  const [reason, setReason] = useState<string | null>(null);
  const [, tick] = useState(0);
  useEffect(() => {
    if (!timer) return;
    const id = window.setInterval(() => tick((n) => n + 1), 1000);
    return () => window.clearInterval(id);
  }, [timer]);
  const chosen = timer?.reasonId ? String(timer.reasonId) : reason;
  const reasonName = reasons.find((r) => String(r.id) === chosen)?.name ?? '';
  return (
    <Section title={t('timer.title')} testId="timer">
      <Stack gap="sm">
        <Select
          label={t('timer.reason')}
          data={reasons.map((r) => ({ value: String(r.id), label: r.name }))}
          value={chosen}
          onChange={(v) => {
            setReason(v);
            if (timer) void setTimerReason(order.id, v ? Number(v) : null);
          }}
          size="lg"
          data-testid="timer-reason"
          comboboxProps={{ withinPortal: true }}
        />
        {timer ? (
          <>
            <Text ta="center" fz={36} fw={700} ff="monospace" data-testid="timer-elapsed">
              {elapsed(Date.now() - timer.startedAt)}
            </Text>
            <Button
              {...big}
              color="red"
              leftSection={<IconPlayerStop />}
              disabled={!chosen}
              data-testid="timer-stop"
              onClick={() => {
                const minutes = Math.max(1, Math.round((Date.now() - timer.startedAt) / 60000));
                void stopTimer(order.id, Number(chosen), t('timer.logged', { minutes, reason: reasonName }));
              }}
            >
              {t('timer.stop')}
            </Button>
            {!chosen && (
              <Text size="sm" c="dimmed">
                {t('timer.chooseReason')}
              </Text>
            )}
          </>
        ) : (
          <Button {...big} color="teal" leftSection={<IconPlayerPlay />} data-testid="timer-start" onClick={() => void startTimer(order.id, chosen ? Number(chosen) : null)}>
            {t('timer.start')}
          </Button>
        )}
      </Stack>
    </Section>
  );
}

function PhotoInput({ onFile, label, testId }: { onFile: (file: File) => void; label: string; testId: string }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        data-testid={`${testId}-input`}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) onFile(file);
          e.currentTarget.value = '';
        }}
      />
      <Button {...big} variant="light" leftSection={<IconCamera />} onClick={() => input.current?.click()} data-testid={testId}>
        {label}
      </Button>
    </>
  );
}

/** A blob's object URL for as long as it is shown. */
function useObjectUrl(blob: Blob | undefined) {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : undefined), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

function PendingPhoto({ item }: { item: OutboxItem }) {
  const url = useObjectUrl(item.file);
  return url ? <Image src={url} alt="" h={120} w="auto" fit="contain" radius="sm" data-testid="photo-pending" /> : null;
}

function StepField({ order, step, pendingPhoto }: { order: CachedWorkOrder; step: IssuedStepDto; pendingPhoto?: OutboxItem }) {
  const { t } = useTranslation('myWork');
  const [draft, setDraft] = useState<string>(step.value === null || step.value === undefined ? '' : String(step.value));
  const answer = (value: unknown, shown: string) => void queueAnswer(order.id, step, value, t('procedure.answered', { label: step.label, value: shown }));
  const testId = `step-${step.position}`;
  const label = (
    <Text fw={500}>
      {step.label}
      {step.required && (
        <Text span c="red">
          {' '}
          *
        </Text>
      )}
      {step.unit ? ` (${step.unit})` : ''}
    </Text>
  );
  switch (step.kind) {
    case 'heading':
      return (
        <Title order={4} size="h6" mt="xs">
          {step.label}
        </Title>
      );
    case 'checkbox':
      return (
        <Checkbox size="lg" label={step.label} checked={step.value === true} onChange={(e) => answer(e.currentTarget.checked, e.currentTarget.checked ? t('procedure.done') : '—')} data-testid={testId} styles={{ body: { minHeight: TOUCH, alignItems: 'center' } }} />
      );
    case 'pass-fail':
      return (
        <Stack gap={4}>
          {label}
          <Group grow gap="xs">
            {(['pass', 'fail', 'flag'] as const).map((v) => (
              <Button key={v} {...big} variant={step.value === v ? 'filled' : 'default'} color={v === 'pass' ? 'green' : v === 'fail' ? 'red' : 'yellow'} onClick={() => answer(v, t(`procedure.${v}`))} data-testid={`${testId}-${v}`}>
                {t(`procedure.${v}`)}
              </Button>
            ))}
          </Group>
        </Stack>
      );
    case 'choice':
      return (
        <Stack gap={4}>
          {label}
          <Stack gap="xs">
            {step.options.map((o) => (
              <Button key={o} {...big} variant={step.value === o ? 'filled' : 'default'} onClick={() => answer(o, o)} data-testid={`${testId}-option`}>
                {o}
              </Button>
            ))}
          </Stack>
        </Stack>
      );
    case 'number':
    case 'text': {
      const changed = draft !== (step.value === null || step.value === undefined ? '' : String(step.value));
      const save = () => {
        if (!changed) return;
        const value = draft.trim() === '' ? null : step.kind === 'number' ? Number(draft) : draft;
        answer(value, draft || '—');
      };
      return (
        <Stack gap={4}>
          {label}
          <Group gap="xs" wrap="nowrap" align="flex-end">
            {step.kind === 'number' ? (
              <NumberInput size="lg" style={{ flex: 1 }} value={draft} onChange={(v) => setDraft(String(v))} inputMode="decimal" data-testid={testId} />
            ) : (
              <TextInput size="lg" style={{ flex: 1 }} value={draft} onChange={(e) => setDraft(e.currentTarget.value)} data-testid={testId} />
            )}
            <Button {...big} disabled={!changed} onClick={save} data-testid={`${testId}-save`}>
              {t('procedure.save')}
            </Button>
          </Group>
        </Stack>
      );
    }
    case 'photo':
      return (
        <Stack gap={4}>
          {label}
          {pendingPhoto ? <PendingPhoto item={pendingPhoto} /> : typeof step.value === 'string' ? <Image src={step.value} alt="" h={120} w="auto" fit="contain" radius="sm" data-testid="photo-saved" /> : null}
          <PhotoInput testId={testId} label={pendingPhoto || step.value ? t('procedure.retake') : t('procedure.takePhoto')} onFile={(file) => void queuePhoto(order.id, step.id, file, t('procedure.photo', { label: step.label }))} />
        </Stack>
      );
    case 'signature':
      return (
        <Stack gap={4}>
          {label}
          <Text size="sm" c="dimmed">
            {typeof step.value === 'string' ? '✓' : t('procedure.signHint')}
          </Text>
        </Stack>
      );
  }
}

function PartsCard({ order, waiting }: { order: CachedWorkOrder; waiting: OutboxItem[] }) {
  const { t } = useTranslation('myWork');
  const [search, setSearch] = useState('');
  const [quantity, setQuantity] = useState<number>(1);
  const matches = useLive(
    () => (search.trim() ? myWorkDb().parts.filter((p) => p.name.toLowerCase().includes(search.trim().toLowerCase())).limit(8).toArray() : Promise.resolve([])),
    [search],
  );
  return (
    <Section title={t('parts.title')} testId="parts">
      <Stack gap="xs">
        {order.parts.length === 0 && waiting.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('parts.none')}
          </Text>
        )}
        {order.parts.map((p) => (
          <Text key={p.id} size="sm">
            {t('parts.added', { quantity: p.quantity, name: p.Part.name })}
          </Text>
        ))}
        {waiting.map((w) => (
          <Text key={w.seq} size="sm" c="orange">
            {w.summary} · {t('waiting')}
          </Text>
        ))}
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput size="lg" style={{ flex: 1 }} placeholder={t('parts.search')} aria-label={t('parts.search')} value={search} onChange={(e) => setSearch(e.currentTarget.value)} data-testid="parts-search" />
          <NumberInput size="lg" w={90} min={1} max={1000} value={quantity} onChange={(v) => setQuantity(Math.max(1, Number(v) || 1))} aria-label="Quantity" data-testid="parts-quantity" />
        </Group>
        {search.trim() && matches?.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('parts.noMatch')}
          </Text>
        )}
        {matches?.map((p) => (
          <Button
            key={p.id}
            {...big}
            variant="default"
            justify="space-between"
            rightSection={t('parts.add')}
            data-testid="parts-result"
            onClick={() => {
              void queueParts(order.id, p.id, quantity, t('parts.added', { quantity, name: p.name }));
              setSearch('');
              setQuantity(1);
            }}
          >
            {p.name}
          </Button>
        ))}
      </Stack>
    </Section>
  );
}

function NoteCard({ order, waiting }: { order: CachedWorkOrder; waiting: OutboxItem[] }) {
  const { t } = useTranslation('myWork');
  const [note, setNote] = useState('');
  return (
    <Section title={t('note.title')} testId="note">
      <Stack gap="xs">
        {waiting.map((w) => (
          <Text key={w.seq} size="sm" c="orange" style={{ whiteSpace: 'pre-wrap' }}>
            {w.summary} · {t('waiting')}
          </Text>
        ))}
        <Textarea size="lg" autosize minRows={3} placeholder={t('note.placeholder')} aria-label={t('note.title')} value={note} onChange={(e) => setNote(e.currentTarget.value)} data-testid="note-input" />
        <Button
          {...big}
          disabled={!note.trim()}
          data-testid="note-add"
          onClick={() => {
            void queueNote(order.id, note.trim());
            setNote('');
          }}
        >
          {t('note.add')}
        </Button>
      </Stack>
    </Section>
  );
}

/**
 * One work order, full screen at phone width (not a drawer): status, the labour timer, the procedure, parts,
 * a note. Every change goes to the outbox first (my-work-sync.ts): it is on the device before it is sent.
 */
export function WorkOrderScreen({ order, onBack }: { order: CachedWorkOrder; onBack: () => void }) {
  const { t } = useTranslation('myWork');
  const wo = order.workOrder;
  const reasons = useLive(() => myWorkDb().reasons.toArray(), []) ?? [];
  const waiting = useLive(() => myWorkDb().outbox.where('workOrderId').equals(order.id).toArray(), [order.id]) ?? [];
  const setStatus = (s: WorkOrderStatus) => void queueStatus(order, s, t('statusChanged', { status: t(`status.${s}`) }));
  const steps = order.procedure?.steps ?? [];
  const photoFor = (stepId: number) => waiting.filter((w) => w.kind === 'photo' && w.path.endsWith(`/step/${stepId}`)).at(-1);
  const { dir } = useDirection();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [order.id]);

  return (
    <Box
      role="dialog"
      aria-modal="true"
      aria-labelledby="wo-screen-title"
      data-testid="work-order-screen"
      style={{ position: 'fixed', inset: 0, zIndex: 200, overflowY: 'auto', background: 'var(--mantine-color-body)' }}
      onKeyDown={(e) => {
        // Escape in an open dropdown (the time reason) closes the dropdown only: the combobox marks its input.
        const target = e.target instanceof Element ? e.target : null;
        if (e.key === 'Escape' && target?.getAttribute('data-mantine-stop-propagation') !== 'true') onBack();
      }}
    >
      <Group
        component="header"
        gap="xs"
        px="xs"
        py={6}
        wrap="nowrap"
        style={{ position: 'sticky', top: 0, zIndex: 1, background: 'var(--mantine-color-body)', borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <ActionIcon size={TOUCH} variant="subtle" onClick={onBack} aria-label={t('back')} data-testid="wo-back">
          <IconArrowLeft style={{ transform: dir === 'rtl' ? 'scaleX(-1)' : undefined }} />
        </ActionIcon>
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Text size="xs" c="dimmed">
            {wo.workOrderId}
          </Text>
          <Title order={2} size="h5" lineClamp={1} id="wo-screen-title" tabIndex={-1} ref={headingRef}>
            {wo.title}
          </Title>
        </Box>
        <SyncIndicator />
      </Group>
      <Stack gap="md" p="md" maw={640} mx="auto" pb={80}>
        <NoticeList workOrderId={order.id} />
        <Card withBorder radius="md" padding="md">
          <Group justify="space-between">
            <Badge size="lg" variant="outline" data-testid="wo-status">
              {t(`status.${wo.status}`)}
            </Badge>
            <Text size="sm">{wo.dueDate ? t('due', { when: formatDateTime(wo.dueDate) }) : t('noDue')}</Text>
          </Group>
          <Text size="sm" c="dimmed" mt={4}>
            {wo.asset?.name ?? t('noAsset')} · {t(`priority.${wo.priority}`)}
          </Text>
          <Group grow mt="sm" gap="xs">
            {wo.status === 'assigned' && (
              <Button {...big} onClick={() => setStatus('in-progress')} data-testid="wo-start">
                {t('start')}
              </Button>
            )}
            {(wo.status === 'assigned' || wo.status === 'in-progress') && (
              <Button {...big} color="green" onClick={() => setStatus('completed')} data-testid="wo-complete">
                {t('complete')}
              </Button>
            )}
            {(wo.status === 'completed' || wo.status === 'cancelled') && (
              <Button {...big} variant="default" onClick={() => setStatus('in-progress')} data-testid="wo-reopen">
                {t('reopen')}
              </Button>
            )}
          </Group>
        </Card>

        <TimerCard order={order} reasons={reasons} />

        <Section title={t('labor.title')} testId="labor">
          <Stack gap={4}>
            {order.labors.length === 0 && !waiting.some((w) => w.kind === 'labor') && (
              <Text size="sm" c="dimmed">
                {t('labor.none')}
              </Text>
            )}
            {order.labors.map((l) => (
              <Text key={l.id} size="sm">
                {formatDateTime(l.startDate)} – {formatDateTime(l.endDate)} · {l.TimeTrackReason.name}
              </Text>
            ))}
            {waiting
              .filter((w) => w.kind === 'labor')
              .map((w) => (
                <Text key={w.seq} size="sm" c="orange" data-testid="labor-waiting">
                  {w.summary} · {t('waiting')}
                </Text>
              ))}
          </Stack>
        </Section>

        <Section title={order.procedure?.name ?? t('procedure.title')} testId="procedure">
          {steps.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('procedure.none')}
            </Text>
          ) : (
            <Stack gap="md">
              {order.procedure && (
                <Text size="sm" c="dimmed">
                  {t('steps', { answered: steps.filter((s) => s.kind !== 'heading' && s.value !== null && s.value !== false).length, total: order.procedure.progress.total })}
                </Text>
              )}
              {steps.map((s) => (
                <StepField key={`${s.id}:${String(s.value)}`} order={order} step={s} pendingPhoto={photoFor(s.id)} />
              ))}
            </Stack>
          )}
        </Section>

        <PartsCard order={order} waiting={waiting.filter((w) => w.kind === 'parts')} />
        <NoteCard order={order} waiting={waiting.filter((w) => w.kind === 'note')} />
      </Stack>
    </Box>
  );
}
