import { useEffect, useState } from 'react';
import { Button, Modal, Select, Stack, Text } from '@mantine/core';
import { IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { myWorkDb, type CachedWorkOrder, type RunningTimer } from './my-work-db';
import { discardTimer, setTimerReason, startTimer, stopTimer, useLive } from './my-work-sync';
import { big, Section, useQueued } from './screen-kit';

function elapsed(ms: number) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** The labour timer of an order: start, stop (logging the time with its reason). */
export function TimerCard({ order, reasons }: { order: CachedWorkOrder; reasons: { id: number; name: string }[] }) {
  const { t } = useTranslation('myWork');
  const timer = useLive(async () => (await myWorkDb().timers.get(order.id)) ?? null, [order.id]);
  const [reason, setReason] = useState<string | null>(null);
  const [, tick] = useState(0);
  useEffect(() => {
    if (!timer) return;
    const id = window.setInterval(() => tick((n) => n + 1), 1000);
    return () => window.clearInterval(id);
  }, [timer]);
  const queued = useQueued();
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
                void queued.run(() => stopTimer(order.id, Number(chosen), t('timer.logged', { minutes, reason: reasonName })));
              }}
            >
              {t('timer.stop')}
            </Button>
            {!chosen && (
              <Text size="sm" c="dimmed">
                {t('timer.chooseReason')}
              </Text>
            )}
            {queued.error && (
              <Text size="sm" c="red" role="alert" data-testid="timer-error">
                {queued.error}
              </Text>
            )}
          </>
        ) : (
          <Button
            {...big}
            color="teal"
            leftSection={<IconPlayerPlay />}
            data-testid="timer-start"
            onClick={() => void startTimer(order.id, chosen ? Number(chosen) : null)}
          >
            {t('timer.start')}
          </Button>
        )}
      </Stack>
    </Section>
  );
}

/** Completing with the timer running: stop it and log the time (with its reason), or discard it; then complete. */
export function CompleteWithTimer({
  order,
  timer,
  reasons,
  onClose,
  onDone,
}: {
  order: CachedWorkOrder;
  timer: RunningTimer;
  reasons: { id: number; name: string }[];
  onClose(): void;
  onDone(): void;
}) {
  const { t } = useTranslation('myWork');
  const [reason, setReason] = useState<string | null>(timer.reasonId ? String(timer.reasonId) : null);
  const queued = useQueued();
  const reasonName = reasons.find((r) => String(r.id) === reason)?.name ?? '';
  const log = async () => {
    const minutes = Math.max(1, Math.round((Date.now() - timer.startedAt) / 60000));
    // The labour row is queued before the status change: sent in that order.
    if (await queued.run(() => stopTimer(order.id, Number(reason), t('timer.logged', { minutes, reason: reasonName })))) onDone();
  };
  return (
    <Modal opened onClose={onClose} title={t('timerOpen.title')} centered zIndex={300} data-testid="complete-timer">
      <Stack gap="sm">
        <Text size="sm">{t('timerOpen.body', { elapsed: elapsed(Date.now() - timer.startedAt) })}</Text>
        <Select
          label={t('timer.reason')}
          data={reasons.map((r) => ({ value: String(r.id), label: r.name }))}
          value={reason}
          onChange={setReason}
          size="lg"
          data-testid="complete-timer-reason"
          comboboxProps={{ withinPortal: true, zIndex: 400 }}
        />
        {queued.error && (
          <Text size="sm" c="red" role="alert">
            {queued.error}
          </Text>
        )}
        <Button {...big} color="green" disabled={!reason} onClick={() => void log()} data-testid="complete-timer-log">
          {t('timerOpen.log')}
        </Button>
        <Button {...big} color="red" variant="light" data-testid="complete-timer-discard" onClick={() => void discardTimer(order.id).then(onDone)}>
          {t('timerOpen.discard')}
        </Button>
        <Button {...big} variant="default" onClick={onClose} data-testid="complete-timer-cancel">
          {t('timerOpen.cancel')}
        </Button>
      </Stack>
    </Modal>
  );
}
