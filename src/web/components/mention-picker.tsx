import { Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api';

type Candidate = { id: number; firstName: string; lastName: string; handle: string };

/** The `@word` being typed just before the caret, with where it starts; null when the caret is not in one. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(?:^|[^\p{L}\p{N}_])@([\p{L}\p{N}_.-]{0,40})$/u.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[1].length - 1, query: match[1] };
}

/** `text` with the `@word` at `start` replaced by the person's handle and a space. */
export function insertMention(text: string, caret: number, start: number, handle: string) {
  const value = `${text.slice(0, start)}@${handle} ${text.slice(caret)}`;
  return { value, caret: start + handle.length + 2 };
}

/**
 * The note box's mention picker (decision 074): people who may see the record, matching what follows `@`.
 * Picking one writes their handle ("@JaneDoe"); the server tells them when the note is saved.
 */
export function MentionSuggestions({
  entityType,
  entityId,
  query,
  onPick,
}: {
  entityType: string;
  entityId: number;
  query: string;
  onPick(handle: string): void;
}) {
  const { t } = useTranslation();
  const candidates = useQuery({
    queryKey: ['notifications', 'mention-candidates', entityType, entityId, query],
    queryFn: ({ signal }) =>
      api.get<{ users: Candidate[] }>(`/notifications/mention-candidates?entityType=${entityType}&entityId=${entityId}&q=${encodeURIComponent(query)}`, {
        signal,
      }),
    staleTime: 30_000,
    retry: false,
  }).data?.users;
  if (!candidates?.length) return null;
  return (
    <Paper withBorder shadow="sm" p={4} role="listbox" aria-label={t('notes.mentionPicker')} data-testid="mention-picker">
      <Stack gap={0}>
        {candidates.map((c) => (
          <UnstyledButton
            key={c.id}
            role="option"
            aria-selected={false}
            px="xs"
            py={4}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onPick(c.handle)}
            data-testid="mention-option"
          >
            <Text size="sm">
              <bdi>
                {c.firstName} {c.lastName}
              </bdi>{' '}
              <Text span c="dimmed" size="xs">
                <bdi>@{c.handle}</bdi>
              </Text>
            </Text>
          </UnstyledButton>
        ))}
      </Stack>
    </Paper>
  );
}
