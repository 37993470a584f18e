import { useState } from 'react';
import { Image, Modal, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState, QueryLoadState } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { useAppData } from '../../../web/lib/app-data';
import type { WorkOrderPhotoDto } from '../../my-work/my-work.schema';
import { formatDateTime } from './labels';

const photosKey = (workOrderId: number) => ['work-orders', 'photos', workOrderId] as const;

/**
 * Photos tab: the photos technicians took into the work order from My work (decision 041), read through
 * `list-photos` (whoever sees the order). Each thumbnail is a button (Tab, Enter) that opens the full image in
 * a dialog (Escape closes it) with who took it and when; a failed load is said with Retry, never "no photos".
 */
export function PhotosTab({ workOrderId }: { workOrderId: number }) {
  const { t } = useTranslation('workOrders');
  const { t: tc } = useTranslation();
  const people = useAppData().data?.workers ?? [];
  const [opened, setOpened] = useState<{ photo: WorkOrderPhotoDto; n: number } | null>(null);
  const query = useQuery({
    queryKey: photosKey(workOrderId),
    queryFn: ({ signal }) => api.get<{ photos: WorkOrderPhotoDto[] }>(`/my-work/list-photos/${workOrderId}`, { signal }),
  });
  if (query.isPending || query.isError) {
    return (
      <QueryLoadState query={query} label={t('photos.title')} texts={{ forbidden: t('photos.failed'), failed: t('photos.failed'), retry: tc('table.retry') }} />
    );
  }
  const photos = query.data.photos;
  if (!photos.length) return <EmptyState title={t('photos.empty')} description={t('photos.emptyHint')} icon={<IconPhoto size={30} />} />;
  const takenBy = (p: WorkOrderPhotoDto) => {
    const who = people.find((u) => u.id === p.userId);
    const when = formatDateTime(p.createdAt);
    return who ? t('photos.takenBy', { name: `${who.firstName} ${who.lastName}`.trim(), when }) : t('photos.takenAt', { when });
  };
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm" data-testid="wo-photos">
        {photos.map((p, i) => (
          <UnstyledButton
            key={p.id}
            onClick={() => setOpened({ photo: p, n: i + 1 })}
            aria-label={t('photos.open', { n: i + 1, total: photos.length })}
            data-testid="wo-photo-thumb"
          >
            <Stack gap={4}>
              <Image src={p.url} alt="" h={120} fit="cover" radius="sm" />
              <Text size="xs" c="dimmed" lineClamp={1}>
                {takenBy(p)}
              </Text>
            </Stack>
          </UnstyledButton>
        ))}
      </SimpleGrid>
      <Modal
        opened={!!opened}
        onClose={() => setOpened(null)}
        size="xl"
        title={opened ? t('photos.dialogTitle', { n: opened.n, total: photos.length }) : ''}
        closeButtonProps={{ 'aria-label': t('photos.close') }}
      >
        {opened && (
          <Stack gap="xs">
            <Image src={opened.photo.url} alt={t('photos.alt', { n: opened.n })} fit="contain" mah="75vh" data-testid="wo-photo-full" />
            <Text size="sm" c="dimmed">
              {takenBy(opened.photo)}
            </Text>
          </Stack>
        )}
      </Modal>
    </>
  );
}
