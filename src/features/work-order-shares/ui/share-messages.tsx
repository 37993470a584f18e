import { Anchor, Stack, Text } from '@mantine/core';
import { formatDateTime } from '../../../web/lib/format';
import type { ShareMessageDto } from '../work-order-shares.schema';

/**
 * A share's thread, on the team's page and the contractor's: who and when, the text, the attached file; `emptyText`
 * when there is none. `byAuthor`: the contractor's messages at the end side, the team's at the start (a chat).
 */
export function ShareMessages(props: { messages: ShareMessageDto[]; emptyText: string; testId: string; fileLabel?: string; byAuthor?: boolean }) {
  return (
    <>
      {props.messages.length === 0 && (
        <Text size="sm" c="dimmed">
          {props.emptyText}
        </Text>
      )}
      {props.messages.map((m) => (
        <Stack
          key={m.id}
          gap={0}
          data-testid={props.testId}
          style={props.byAuthor ? { alignSelf: m.fromContractor ? 'flex-end' : 'flex-start', maxWidth: '85%' } : undefined}
        >
          <Text size="xs" c="dimmed">
            {m.author} · {formatDateTime(m.createdAt)}
          </Text>
          {m.body && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {m.body}
            </Text>
          )}
          {m.fileUrl && (
            <Anchor href={m.fileUrl} target="_blank" rel="noreferrer" size="sm">
              {m.fileName ?? props.fileLabel}
            </Anchor>
          )}
        </Stack>
      ))}
    </>
  );
}
