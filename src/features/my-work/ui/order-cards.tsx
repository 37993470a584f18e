import { Button, Image, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../web/lib/format';
import type { CachedWorkOrder } from './my-work-db';
import { queueNote, queueWorkOrderPhoto } from './my-work-sync';
import type { OutboxItem } from './outbox';
import { big, Section, useQueued } from './screen-kit';
import { PendingPhoto, PhotoInput } from './step-field';

export function NoteCard({ order, waiting }: { order: CachedWorkOrder; waiting: OutboxItem[] }) {
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
export function PhotosCard({ order, waiting }: { order: CachedWorkOrder; waiting: OutboxItem[] }) {
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

/** The labour logged on the order, and the timer's rows waiting to be sent. */
export function LaborCard({ order, waiting }: { order: CachedWorkOrder; waiting: OutboxItem[] }) {
  const { t } = useTranslation('myWork');
  return (
    <Section title={t('labor.title')} testId="labor">
      <Stack gap={4}>
        {order.labors.length === 0 && waiting.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('labor.none')}
          </Text>
        )}
        {order.labors.map((l) => (
          <Text key={l.id} size="sm">
            {formatDateTime(l.startDate)} – {formatDateTime(l.endDate)} · {l.TimeTrackReason.name}
          </Text>
        ))}
        {waiting.map((w) => (
          <Text key={w.seq} size="sm" c="orange" data-testid="labor-waiting">
            {w.summary} · {t('waiting')}
          </Text>
        ))}
      </Stack>
    </Section>
  );
}
