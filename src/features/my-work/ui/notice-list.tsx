import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WorkOrderDto } from '../../work-orders/work-orders.schema';
import type { IssuedStepDto } from '../../procedures/procedures.schema';
import { myWorkDb } from './my-work-db';
import { useLive } from './my-work-sync';
import type { SyncNotice } from './outbox';

/**
 * The changes the server refused (decision 041): what was not applied, why, and what was kept (the server's
 * record as the 409 gave it). Shown until the technician dismisses them.
 */
export function NoticeList({ workOrderId }: { workOrderId?: number }) {
  const notices = useLive(
    () => (workOrderId ? myWorkDb().notices.where('workOrderId').equals(workOrderId).toArray() : myWorkDb().notices.toArray()),
    [workOrderId],
  );
  if (!notices?.length) return null;
  return (
    <Stack gap="sm">
      {notices.map((n) => (
        <NoticeCard key={n.id} notice={n} onDismiss={() => void myWorkDb().notices.delete(n.id!)} />
      ))}
    </Stack>
  );
}

/** One refused change: the work order it was about (by number and title), the change, why, and what was kept. */
export function NoticeCard({ notice: n, onDismiss }: { notice: SyncNotice; onDismiss(): void }) {
  const { t } = useTranslation('myWork');
  return (
    <Alert color="orange" title={isStepConflict(n) ? t('notice.changedAnswer') : t(`notice.${n.reason}`)} data-testid="sync-notice">
      {n.order && (
        <Text size="sm" fw={700} data-testid="sync-notice-order">
          {n.order.code} · {n.order.title}
        </Text>
      )}
      <Text size="sm" fw={600}>
        {n.summary}
      </Text>
      <Text size="sm">{n.message}</Text>
      {n.reason !== 'gone' && (
        <Text size="sm" mt={4} data-testid="sync-notice-kept">
          {kept(n, t)}
        </Text>
      )}
      <Button mt="xs" size="md" variant="light" onClick={onDismiss} data-testid="sync-notice-dismiss">
        {t('notice.dismiss')}
      </Button>
    </Alert>
  );
}

type T = ReturnType<typeof useTranslation>['t'];

/** A step's answer or photo refused because the step was answered meanwhile (409 with the step now). */
const isStepConflict = (n: SyncNotice) =>
  n.reason === 'changed' && (n.kind === 'answer' || (n.kind === 'photo' && !!n.current && typeof n.current === 'object' && 'label' in n.current));

/** What the server kept: the work order's status, or the step's answer as it is now. */
function kept(n: SyncNotice, t: T) {
  if (isStepConflict(n) && n.current && typeof n.current === 'object') {
    const step = n.current as Partial<IssuedStepDto>;
    const value = step.value;
    if (value === null || value === undefined || value === false) return t('notice.keptEmpty', { label: step.label ?? '' });
    return t('notice.keptAnswer', { label: step.label ?? '', value: shownAnswer(step, value, t) });
  }
  const current = n.current as Partial<WorkOrderDto> | undefined;
  return current?.status ? t('notice.kept', { status: t(`status.${current.status}`) }) : t('notice.keptServer');
}

function shownAnswer(step: Partial<IssuedStepDto>, value: unknown, t: T) {
  if (value === true) return t('procedure.done');
  if (step.kind === 'pass-fail' && typeof value === 'string') return t(`procedure.${value}`);
  if (step.kind === 'photo' || step.kind === 'signature') return t('notice.image');
  return step.unit ? `${String(value)} ${step.unit}` : String(value);
}
