import { useRef, useState } from 'react';
import { Avatar, Button, Group, Loader, Stack, Text, Textarea, Timeline } from '@mantine/core';
import { IconNote, IconPencil, IconPlus, IconPaperclip, IconTrash, IconArrowsExchange } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ActivityItem } from '../../features/activity/activity.schema';
import { noteInputSchema } from '../../features/activity/activity.schema';
import { api, errorMessage } from '../lib/api';
import { formatDateTime } from '../lib/format';
import { notifyError } from './notify';
import { actorLabel, historyFieldLabel, historyValue } from './history-labels';
import { insertMention, MentionSuggestions, mentionAt } from './mention-picker';

/** react-query key of a record's history; invalidate it after saving the record. */
export const activityQueryKey = (entityType: string, entityId: number) => ['activities', entityType, entityId] as const;

const icons = {
  created: IconPlus,
  updated: IconPencil,
  status: IconArrowsExchange,
  deleted: IconTrash,
  note: IconNote,
  attachment: IconPaperclip,
} as const;

function ActivityLine({ item, entityType }: { item: ActivityItem; entityType: string }) {
  const { t } = useTranslation();
  const who = actorLabel(t, item);
  return (
    <Stack gap={2}>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={600}>
          {who}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(item.createdAt)}
        </Text>
      </Group>
      {item.action === 'note' ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {item.note}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          {t(`notes.action.${item.action}`)}
        </Text>
      )}
      {item.changes &&
        Object.entries(item.changes).map(([field, c]) => (
          <Text size="xs" key={field} c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            <b>{historyFieldLabel(t, entityType, field)}</b>: <bdi>{historyValue(t, entityType, field, c.from)}</bdi> →{' '}
            <bdi>{historyValue(t, entityType, field, c.to)}</bdi>
          </Text>
        ))}
    </Stack>
  );
}

/** The Note Logs tab: a record's history (created, changes, status, notes) and a box to add a note. */
export function NoteLogs({ entityType, entityId }: { entityType: string; entityId: number | null | undefined }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const [caret, setCaret] = useState(0);
  const mention = mentionAt(note, caret);
  const box = useRef<HTMLTextAreaElement>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const enabled = typeof entityId === 'number' && entityId > 0;
  const key = activityQueryKey(entityType, entityId ?? 0);
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<{ activities: ActivityItem[] }>(`/activities/${entityType}/${entityId}`, { signal }),
    enabled,
  });
  const add = useMutation({
    mutationFn: (text: string) => api.post<{ activities: ActivityItem[] }>(`/activities/${entityType}/${entityId}/notes`, { note: text }),
    onSuccess: (data) => {
      queryClient.setQueryData(key, data);
      setNote('');
    },
    onError: (err) => notifyError(errorMessage(err, t('notes.failed'))),
  });

  if (!enabled) {
    return (
      <Text size="sm" c="dimmed" data-testid="note-logs-unsaved">
        {t('notes.saveFirst')}
      </Text>
    );
  }

  const submit = () => {
    const parsed = noteInputSchema.safeParse({ note });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? t('notes.failed'));
      return;
    }
    setFieldError(null);
    add.mutate(parsed.data.note);
  };

  return (
    <Stack gap="md" data-testid="note-logs">
      <Stack gap={6}>
        <Textarea
          aria-label={t('notes.placeholder')}
          placeholder={t('notes.placeholder')}
          autosize
          minRows={2}
          maxRows={6}
          value={note}
          error={fieldError}
          onChange={(e) => {
            setNote(e.currentTarget.value);
            setCaret(e.currentTarget.selectionStart ?? e.currentTarget.value.length);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart ?? 0)}
          ref={box}
          data-testid="note-input"
        />
        {mention && (
          <MentionSuggestions
            entityType={entityType}
            entityId={entityId}
            query={mention.query}
            onPick={(handle) => {
              const next = insertMention(note, caret, mention.start, handle);
              setNote(next.value);
              setCaret(next.caret);
              requestAnimationFrame(() => {
                box.current?.focus();
                box.current?.setSelectionRange(next.caret, next.caret);
              });
            }}
          />
        )}
        <Group justify="flex-end">
          <Button size="xs" onClick={submit} loading={add.isPending} data-testid="note-add">
            {t('notes.add')}
          </Button>
        </Group>
      </Stack>
      {query.isLoading && <Loader size="sm" />}
      {query.isError && (
        <Text size="sm" c="red">
          {errorMessage(query.error, t('notes.loadFailed'))}
        </Text>
      )}
      {query.data && query.data.activities.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('notes.empty')}
        </Text>
      )}
      {query.data && query.data.activities.length > 0 && (
        <Timeline bulletSize={22} lineWidth={2}>
          {query.data.activities.map((item) => {
            const Icon = icons[item.action] ?? IconNote;
            return (
              <Timeline.Item
                key={item.id}
                bullet={
                  item.user ? (
                    <Avatar size={22} radius="xl">
                      {item.user.firstName.slice(0, 1).toUpperCase()}
                    </Avatar>
                  ) : (
                    <Icon size={12} />
                  )
                }
              >
                <ActivityLine item={item} entityType={entityType} />
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
    </Stack>
  );
}
