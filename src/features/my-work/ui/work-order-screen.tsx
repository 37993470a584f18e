import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  ActionIcon,
  Badge,
  useDirection,
  Box,
  Button,
  Card,
  Checkbox,
  Group,
  Image,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconCamera, IconScan } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../web/lib/format';
import type { WorkOrderStatus } from '../../work-orders/work-orders.schema';
import type { IssuedStepDto } from '../../procedures/procedures.schema';
import { isAnswered, progressOf } from '../../procedures/procedure-progress';
import { CameraScanner, tokenOf } from '../../request-portal/ui/camera-scanner';
import { myWorkDb, type CachedPart, type CachedWorkOrder } from './my-work-db';
import { preloadChecks, queueAnswer, queueNote, queueParts, queuePhoto, queueStatus, queueWorkOrderPhoto, useLive } from './my-work-sync';
import type { OutboxItem } from './outbox';
import { NoticeList } from './notice-list';
import { SyncIndicator, TOUCH } from './sync-indicator';
import { SignaturePad } from '../../../web/components/signature-pad';
import { big, Section, useQueued } from './screen-kit';
import { CompleteWithTimer, TimerCard } from './timer-card';

function PhotoInput({ onFile, label, testId, error }: { onFile: (file: File) => void; label: string; testId: string; error?: string | null }) {
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
      {error && (
        <Text size="sm" c="red" role="alert" data-testid={`${testId}-error`}>
          {error}
        </Text>
      )}
    </>
  );
}

/** A blob's object URL for as long as it is shown. */
function useObjectUrl(blob: Blob | undefined) {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : undefined), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

function PendingPhoto({ item, testId = 'photo-pending' }: { item: OutboxItem; testId?: string }) {
  const url = useObjectUrl(item.file);
  return url ? <Image src={url} alt="" h={120} w="auto" fit="contain" radius="sm" data-testid={testId} /> : null;
}

function StepField({ order, step, pendingPhoto }: { order: CachedWorkOrder; step: IssuedStepDto; pendingPhoto?: OutboxItem }) {
  const { t } = useTranslation('myWork');
  const [draft, setDraft] = useState<string>(step.value === null || step.value === undefined ? '' : String(step.value));
  const [signing, setSigning] = useState(false);
  const queued = useQueued();
  const answer = (value: unknown, shown: string) =>
    void queued.run(() => queueAnswer(order.id, step, value, t('procedure.answered', { label: step.label, value: shown })));
  const refusal = queued.error && (
    <Text size="sm" c="red" role="alert" data-testid={`step-${step.position}-error`}>
      {queued.error}
    </Text>
  );
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
        <Checkbox
          size="lg"
          label={step.label}
          checked={step.value === true}
          onChange={(e) => answer(e.currentTarget.checked, e.currentTarget.checked ? t('procedure.done') : '—')}
          error={queued.error}
          data-testid={testId}
          styles={{ body: { minHeight: TOUCH, alignItems: 'center' } }}
        />
      );
    case 'pass-fail':
      return (
        <Stack gap={4}>
          {label}
          <Group grow gap="xs">
            {(['pass', 'fail', 'flag'] as const).map((v) => (
              <Button
                key={v}
                {...big}
                variant={step.value === v ? 'filled' : 'default'}
                color={v === 'pass' ? 'green' : v === 'fail' ? 'red' : 'yellow'}
                onClick={() => answer(v, t(`procedure.${v}`))}
                data-testid={`${testId}-${v}`}
              >
                {t(`procedure.${v}`)}
              </Button>
            ))}
          </Group>
          {refusal}
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
          {refusal}
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
              <NumberInput
                size="lg"
                style={{ flex: 1 }}
                value={draft}
                onChange={(v) => setDraft(String(v))}
                inputMode="decimal"
                error={queued.error}
                data-testid={testId}
              />
            ) : (
              <TextInput
                size="lg"
                style={{ flex: 1 }}
                value={draft}
                onChange={(e) => setDraft(e.currentTarget.value)}
                error={queued.error}
                data-testid={testId}
              />
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
          {pendingPhoto ? (
            <PendingPhoto item={pendingPhoto} />
          ) : typeof step.value === 'string' ? (
            <Image src={step.value} alt="" h={120} w="auto" fit="contain" radius="sm" data-testid="photo-saved" />
          ) : null}
          <PhotoInput
            testId={testId}
            error={queued.error}
            label={pendingPhoto || step.value ? t('procedure.retake') : t('procedure.takePhoto')}
            onFile={(file) => void queued.run(() => queuePhoto(order.id, step, file, t('procedure.photo', { label: step.label })))}
          />
        </Stack>
      );
    case 'signature':
      // Signed here, with a finger (issue 46): the PNG goes through the outbox as a step image, as a photo does.
      return (
        <Stack gap={4}>
          {label}
          {pendingPhoto ? (
            <PendingPhoto item={pendingPhoto} />
          ) : typeof step.value === 'string' ? (
            <Image src={step.value} alt={t('procedure.signed')} h={80} w="auto" fit="contain" bg="white" radius="sm" data-testid="signature-saved" />
          ) : null}
          <Button {...big} variant="light" onClick={() => setSigning(true)} data-testid={`${testId}-sign`}>
            {pendingPhoto || step.value ? t('procedure.signAgain') : t('procedure.sign')}
          </Button>
          {queued.error && (
            <Text size="sm" c="red">
              {queued.error}
            </Text>
          )}
          <SignaturePad
            opened={signing}
            onClose={() => setSigning(false)}
            labels={{ title: t('procedure.signTitle'), hint: t('procedure.signHint'), clear: t('procedure.signClear'), save: t('procedure.signSave') }}
            onSave={(png) => {
              setSigning(false);
              void queued.run(() => queuePhoto(order.id, step, png, t('procedure.signature', { label: step.label })));
            }}
          />
        </Stack>
      );
  }
}

/** The part a scanned label names: its SKU code (or its exact name), case and spaces aside. */
async function partForLabel(text: string): Promise<CachedPart | undefined> {
  const code = text.trim();
  if (!code) return undefined;
  const db = myWorkDb();
  return (await db.parts.where('skuCode').equalsIgnoreCase(code).first()) ?? (await db.parts.where('name').equalsIgnoreCase(code).first());
}

function PartsCard({ order, waiting }: { order: CachedWorkOrder; waiting: OutboxItem[] }) {
  const { t } = useTranslation('myWork');
  const [search, setSearch] = useState('');
  const [quantity, setQuantity] = useState<number | string>(1);
  const [scanning, setScanning] = useState(false);
  const [noCamera, setNoCamera] = useState(false);
  const [scanNote, setScanNote] = useState<string | null>(null);
  const queued = useQueued();
  const term = search.trim().toLowerCase();
  const matches = useLive(
    () =>
      term
        ? myWorkDb()
            .parts.filter((p) => p.name.toLowerCase().includes(term) || (p.skuCode ?? '').toLowerCase() === term)
            .limit(8)
            .toArray()
        : Promise.resolve([]),
    [term],
  );
  const add = async (p: CachedPart) => {
    // The quantity as typed: the route's schema judges it (a whole number, 1 to 1,000,000), never clamped here.
    const q = typeof quantity === 'number' ? quantity : quantity.trim() === '' ? Number.NaN : Number(quantity);
    const ok = await queued.run(() => queueParts(order.id, p.id, q, t('parts.added', { quantity: q, name: p.name })));
    if (ok) {
      setSearch('');
      setQuantity(1);
      setScanNote(null);
    }
  };
  const onScan = useCallback(
    (text: string) => {
      setScanning(false);
      void partForLabel(text).then((part) => {
        if (part) {
          setSearch(part.skuCode ?? part.name);
          setScanNote(null);
        } else setScanNote(tokenOf(text) ? t('parts.assetLabel') : t('parts.unknownLabel', { code: text.trim().slice(0, 80) }));
      });
    },
    [t],
  );
  const onNoCamera = useCallback(() => {
    setScanning(false);
    setNoCamera(true);
  }, []);
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
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            size="lg"
            style={{ flex: 1 }}
            placeholder={t('parts.search')}
            aria-label={t('parts.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            data-testid="parts-search"
          />
          <NumberInput
            size="lg"
            w={120}
            min={1}
            allowDecimal={false}
            value={quantity}
            onChange={setQuantity}
            aria-label={t('parts.quantity')}
            error={queued.error}
            data-testid="parts-quantity"
          />
        </Group>
        {!noCamera && (
          <Button {...big} variant="light" leftSection={<IconScan />} onClick={() => setScanning((v) => !v)} data-testid="parts-scan">
            {scanning ? t('parts.stopScan') : t('parts.scan')}
          </Button>
        )}
        {noCamera && (
          <Text size="sm" c="dimmed" data-testid="parts-no-camera">
            {t('parts.noCamera')}
          </Text>
        )}
        {scanning && <CameraScanner products onText={onScan} onUnavailable={onNoCamera} />}
        {scanNote && (
          <Text size="sm" c="orange" data-testid="parts-scan-note">
            {scanNote}
          </Text>
        )}
        {term && matches?.length === 0 && (
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
            onClick={() => void add(p)}
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
  const queued = useQueued();
  return (
    <Section title={t('note.title')} testId="note">
      <Stack gap="xs">
        {waiting.map((w) => (
          <Text key={w.seq} size="sm" c="orange" style={{ whiteSpace: 'pre-wrap' }}>
            {w.summary} · {t('waiting')}
          </Text>
        ))}
        <Textarea
          size="lg"
          autosize
          minRows={3}
          maxRows={12}
          placeholder={t('note.placeholder')}
          aria-label={t('note.title')}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          error={queued.error}
          data-testid="note-input"
        />
        <Button
          {...big}
          disabled={!note.trim()}
          data-testid="note-add"
          onClick={() => void queued.run(() => queueNote(order.id, note.trim())).then((ok) => ok && setNote(''))}
        >
          {t('note.add')}
        </Button>
      </Stack>
    </Section>
  );
}

/** Photos of the work order itself (not of a procedure step): taken with the camera, queued like every change. */
function PhotosCard({ order, waiting }: { order: CachedWorkOrder; waiting: OutboxItem[] }) {
  const { t } = useTranslation('myWork');
  const queued = useQueued();
  const photos = order.photos ?? [];
  return (
    <Section title={t('photos.title')} testId="photos">
      <Stack gap="xs">
        {photos.length === 0 && waiting.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('photos.none')}
          </Text>
        )}
        <SimpleGrid cols={3} spacing="xs">
          {photos.map((p) => (
            <Image key={p.id} src={p.url} alt="" h={100} fit="cover" radius="sm" data-testid="wo-photo-saved" />
          ))}
          {waiting.map((w) => (
            <PendingPhoto key={w.seq} item={w} testId="wo-photo-pending" />
          ))}
        </SimpleGrid>
        <PhotoInput
          testId="wo-photo"
          error={queued.error}
          label={t('photos.take')}
          onFile={(file) => void queued.run(() => queueWorkOrderPhoto(order.id, file, t('photos.summary')))}
        />
      </Stack>
    </Section>
  );
}

/**
 * One work order, full screen at phone width (not a drawer): status, the labour timer, the procedure, photos,
 * parts (searched or scanned), a note. Every change goes to the outbox first (my-work-sync.ts): it is on the device before it is sent.
 */
export function WorkOrderScreen({ order, onBack }: { order: CachedWorkOrder; onBack: () => void }) {
  const { t } = useTranslation('myWork');
  const wo = order.workOrder;
  const reasons = useLive(() => myWorkDb().reasons.toArray(), []) ?? [];
  const waiting = useLive(() => myWorkDb().outbox.where('workOrderId').equals(order.id).toArray(), [order.id]) ?? [];
  const statusChange = useQueued();
  const setStatus = (s: WorkOrderStatus) => void statusChange.run(() => queueStatus(order, s, t('statusChanged', { status: t(`status.${s}`) })));
  const steps = order.procedure?.steps ?? [];
  const photoFor = (stepId: number) => waiting.filter((w) => w.kind === 'photo' && w.path.endsWith(`/step/${stepId}`)).at(-1);
  const timer = useLive(async () => (await myWorkDb().timers.get(order.id)) ?? null, [order.id]);
  const [askTimer, setAskTimer] = useState(false);
  /**
   * Completing: the server refuses it while required steps are empty, so the phone says which ones now (a photo
   * waiting to be sent counts as given); with the timer running it asks what becomes of the time first.
   */
  const complete = () => {
    const missing = steps.filter((s) => s.required && s.kind !== 'heading' && !isAnswered(s.kind, s.value) && !photoFor(s.id));
    if (missing.length) {
      const names = missing.map((s) => `"${s.label}"`).join(', ');
      statusChange.refuse(missing.length === 1 ? t('completeMissingOne', { step: names }) : t('completeMissingMany', { count: missing.length, steps: names }));
      return;
    }
    if (timer) setAskTimer(true);
    else setStatus('completed');
  };
  const orderPhotos = waiting.filter((w) => w.kind === 'photo' && w.path.startsWith('/my-work/add-photo/'));
  const progress = order.procedure ? progressOf(steps) : null;
  const { dir } = useDirection();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [order.id]);
  // The checks every change goes through (zod and the routes' schemas): fetched as the screen opens.
  useEffect(preloadChecks, []);

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
        style={{
          position: 'sticky',
          top: 0,
          zIndex: 1,
          background: 'var(--mantine-color-body)',
          borderBottom: '1px solid var(--mantine-color-default-border)',
        }}
      >
        <ActionIcon size={TOUCH} variant="subtle" onClick={onBack} aria-label={t('back')} data-testid="wo-back">
          <IconArrowLeft style={{ transform: dir === 'rtl' ? 'scaleX(-1)' : undefined }} />
        </ActionIcon>
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Text size="xs" c="dimmed">
            <bdi>{wo.workOrderId}</bdi>
          </Text>
          <Title order={2} size="h5" lineClamp={1} id="wo-screen-title" tabIndex={-1} ref={headingRef}>
            <bdi>{wo.title}</bdi>
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
            <bdi>{wo.asset?.name ?? t('noAsset')}</bdi> · {t(`priority.${wo.priority}`)}
          </Text>
          <Group grow mt="sm" gap="xs">
            {wo.status === 'assigned' && (
              <Button {...big} onClick={() => setStatus('in-progress')} data-testid="wo-start">
                {t('start')}
              </Button>
            )}
            {(wo.status === 'assigned' || wo.status === 'in-progress') && (
              <Button {...big} color="green" onClick={complete} data-testid="wo-complete">
                {t('complete')}
              </Button>
            )}
            {(wo.status === 'completed' || wo.status === 'cancelled') && (
              <Button {...big} variant="default" onClick={() => setStatus('in-progress')} data-testid="wo-reopen">
                {t('reopen')}
              </Button>
            )}
          </Group>
          {statusChange.error && (
            <Text size="sm" c="red" role="alert" mt="xs">
              {statusChange.error}
            </Text>
          )}
        </Card>

        <TimerCard order={order} reasons={reasons} />
        {askTimer && timer && (
          <CompleteWithTimer
            order={order}
            timer={timer}
            reasons={reasons}
            onClose={() => setAskTimer(false)}
            onDone={() => {
              setAskTimer(false);
              setStatus('completed');
            }}
          />
        )}

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
              {progress && (
                <Text size="sm" c="dimmed" data-testid="procedure-progress">
                  {t('steps', { answered: progress.answered, total: progress.total })}
                </Text>
              )}
              {steps.map((s) => (
                <StepField key={`${s.id}:${String(s.value)}`} order={order} step={s} pendingPhoto={photoFor(s.id)} />
              ))}
            </Stack>
          )}
        </Section>

        <PhotosCard order={order} waiting={orderPhotos} />
        <PartsCard order={order} waiting={waiting.filter((w) => w.kind === 'parts')} />
        <NoteCard order={order} waiting={waiting.filter((w) => w.kind === 'note')} />
      </Stack>
    </Box>
  );
}
