import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WorkOrderDto } from '../../work-orders/work-orders.schema';
import { myWorkDb } from './my-work-db';
import { useLive } from './my-work-sync';

/**
 * The changes the server refused (decision 041): what was not applied, why, and what was kept (the server's
 * record as the 409 gave it). Shown until the technician dismisses them.
 */
export function NoticeList({ workOrderId }: { workOrderId?: number }) {
  const { t } = useTranslation('myWork');
  const notices = useLive(() => (workOrderId ? myWorkDb().notices.where('workOrderId').equals(workOrderId).toArray() : myWorkDb().notices.toArray()), [workOrderId]);
  if (!notices?.length) return null;
  return (
    <Stack gap="sm">
      {notices.map((n) => {
        const current = n.current as Partial<WorkOrderDto> | undefined;
        return (
          <Alert key={n.id} color="orange" title={t(`notice.${n.reason}`)} data-testid="sync-notice">
            <Text size="sm" fw={600}>
              {n.summary}
            </Text>
            <Text size="sm">{n.message}</Text>
            {n.reason !== 'gone' && (
              <Text size="sm" mt={4}>
                {current?.status ? t('notice.kept', { status: t(`status.${current.status}`) }) : t('notice.keptServer')}
              </Text>
            )}
            <Button mt="xs" size="md" variant="light" onClick={() => void myWorkDb().notices.delete(n.id!)} data-testid="sync-notice-dismiss">
              {t('notice.dismiss')}
            </Button>
          </Alert>
        );
      })}
    </Stack>
  );
}
