import { useEffect, useState } from 'react';
import { Badge, Box, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../web/lib/format';
import type { WorkOrderStatus } from '../../work-orders/work-orders.schema';
import { isAnswered, progressOf } from '../../procedures/procedure-progress';
import { myWorkDb, type CachedWorkOrder } from './my-work-db';
import { preloadChecks, queueStatus, useLive } from './my-work-sync';
import { NoticeList } from './notice-list';
import type { OutboxItem } from './outbox';
import { SubScreen } from './sub-screen';
import { big, Section, useQueued } from './screen-kit';
import { CompleteWithTimer, TimerCard } from './timer-card';
import { StepField } from './step-field';
import { PartsCard, ReadinessBadge } from './parts-card';
import { LaborCard, NoteCard, PhotosCard } from './order-cards';
import { asksForCodes, CloseOrderDialog, useFailureReference } from './close-order-dialog';
import { HoldBadge } from './hold-badge';
import './labels-tech';

/** Takes the technician to a procedure step: scrolled into view and focused (a refused completion names it). */
export function goToStep(position: number) {
  const el = document.getElementById(`wo-step-${position}`);
  el?.scrollIntoView({ block: 'center' });
  el?.focus();
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
  const setStatus = (s: WorkOrderStatus, codes: object = {}) =>
    void statusChange.run(() => queueStatus(order, s, t('statusChanged', { status: t(`status.${s}`) }), codes));
  const steps = order.procedure?.steps ?? [];
  const photoFor = (stepId: number) => waiting.filter((w) => w.kind === 'photo' && w.path.endsWith(`/step/${stepId}`)).at(-1);
  const timer = useLive(async () => (await myWorkDb().timers.get(order.id)) ?? null, [order.id]);
  const [askTimer, setAskTimer] = useState(false);
  const [askCodes, setAskCodes] = useState(false);
  const failureReference = useFailureReference();
  /** The failure codes chosen in the closing dialog, sent with the completion (after the timer's question). */
  const [codes, setCodes] = useState<object>({});
  const [missingStep, setMissingStep] = useState<number | null>(null);
  const { t: tt } = useTranslation('techApp');
  /** After the codes (when asked): with the timer running it asks what becomes of the time first. */
  const finish = (chosen: object) => {
    setCodes(chosen);
    if (timer) setAskTimer(true);
    else setStatus('completed', chosen);
  };
  /**
   * Completing: the server refuses it while required steps are empty, so the phone says which ones now (a photo
   * waiting to be sent counts as given) and takes the technician to the first; a reactive order on an asset asks
   * for its failure codes (decision 080, from the device's copy: offline too).
   */
  const complete = () => {
    const missing = steps.filter((s) => s.required && s.kind !== 'heading' && !isAnswered(s.kind, s.value) && !photoFor(s.id));
    if (missing.length) {
      const names = missing.map((s) => `"${s.label}"`).join(', ');
      statusChange.refuse(missing.length === 1 ? t('completeMissingOne', { step: names }) : t('completeMissingMany', { count: missing.length, steps: names }));
      setMissingStep(missing[0].position);
      goToStep(missing[0].position);
      return;
    }
    setMissingStep(null);
    if (asksForCodes(wo)) setAskCodes(true);
    else finish({});
  };
  const orderPhotos = waiting.filter((w) => w.kind === 'photo' && w.path.startsWith('/my-work/add-photo/'));
  // The checks every change goes through (zod and the routes' schemas): fetched as the screen opens.
  useEffect(preloadChecks, []);

  return (
    <SubScreen
      testId="work-order-screen"
      titleId="wo-screen-title"
      overline={<bdi>{wo.workOrderId}</bdi>}
      title={<bdi>{wo.title}</bdi>}
      onBack={onBack}
      backLabel={t('back')}
      backTestId="wo-back"
      focusKey={order.id}
    >
      <NoticeList workOrderId={order.id} />
      <Card withBorder radius="md" padding="md">
        <Group justify="space-between">
          <Group gap="xs">
            <Badge size="lg" variant="outline" data-testid="wo-status">
              {t(`status.${wo.status}`)}
            </Badge>
            <HoldBadge order={wo} />
          </Group>
          <Text size="sm">{wo.dueDate ? t('due', { when: formatDateTime(wo.dueDate) }) : t('noDue')}</Text>
        </Group>
        <Text size="sm" c="dimmed" mt={4}>
          <bdi>{wo.asset?.name ?? t('noAsset')}</bdi> · {t(`priority.${wo.priority}`)}
        </Text>
        {wo.onHold && wo.holdNote && (
          <Text size="sm" c="orange" dir="auto" data-testid="wo-hold-note">
            {wo.holdNote}
          </Text>
        )}
        <Box mt={4}>
          <ReadinessBadge order={order} />
        </Box>
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
          <Text size="sm" c="red" role="alert" mt="xs" data-testid="wo-status-error">
            {statusChange.error}
          </Text>
        )}
        {statusChange.error && missingStep !== null && (
          <Button variant="subtle" mt={4} onClick={() => goToStep(missingStep)} data-testid="wo-go-to-step">
            {tt('goToStep')}
          </Button>
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
            setStatus('completed', codes);
          }}
        />
      )}
      {askCodes && (
        <CloseOrderDialog
          order={wo}
          reference={failureReference}
          onClose={() => setAskCodes(false)}
          onConfirm={(chosen) => {
            setAskCodes(false);
            finish(chosen);
          }}
        />
      )}

      <LaborCard order={order} waiting={waiting.filter((w) => w.kind === 'labor')} />

      <ProcedureSection order={order} photoFor={photoFor} />

      <PhotosCard order={order} waiting={orderPhotos} />
      <PartsCard order={order} waiting={waiting.filter((w) => w.kind === 'parts')} />
      <NoteCard order={order} waiting={waiting.filter((w) => w.kind === 'note')} />
    </SubScreen>
  );
}

/** The order's procedure on the phone: its progress and every step's control (a photo waiting to be sent shows as given). */
function ProcedureSection({ order, photoFor }: { order: CachedWorkOrder; photoFor(stepId: number): OutboxItem | undefined }) {
  const { t } = useTranslation('myWork');
  const steps = order.procedure?.steps ?? [];
  const progress = order.procedure ? progressOf(steps) : null;
  return (
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
            <Box key={`${s.id}:${JSON.stringify(s.value)}`} id={`wo-step-${s.position}`} tabIndex={-1} data-testid={`wo-step-${s.position}`}>
              <StepField order={order} step={s} pendingPhoto={photoFor(s.id)} />
            </Box>
          ))}
        </Stack>
      )}
    </Section>
  );
}
