import { Button } from '@mantine/core';
import { IconEye, IconEyeCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../web/lib/api';
import { notifyError } from '../../../web/components/notify';
import './notifications-i18n';

/** Follow a work order: its status changes reach me (decision 074). The work order drawer's one import of this feature. */
export function FollowButton({ workOrderId }: { workOrderId: number }) {
  const { t } = useTranslation('notifications');
  const queryClient = useQueryClient();
  const key = ['notifications', 'follow', workOrderId];
  const path = `/notifications/work-orders/${workOrderId}/follow`;
  const following = useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<{ following: boolean }>(path, { signal }), retry: false }).data?.following;
  const toggle = useMutation({
    mutationFn: () => (following ? api.del<{ following: boolean }>(path) : api.put<{ following: boolean }>(path)),
    onSuccess: (data) => queryClient.setQueryData(key, data),
    onError: () => notifyError(t('saveFailed')),
  });
  if (following === undefined) return null;
  return (
    <Button
      size="xs"
      variant={following ? 'light' : 'default'}
      leftSection={following ? <IconEyeCheck size={14} /> : <IconEye size={14} />}
      onClick={() => toggle.mutate()}
      loading={toggle.isPending}
      title={t('followHint')}
      aria-pressed={following}
      data-testid="wo-follow"
    >
      {following ? t('following') : t('follow')}
    </Button>
  );
}
