import { Paper, Text } from '@mantine/core';

/** A statistics card: a dimmed label over a big number ('–' while loading); `color` draws a coloured left edge. */
export function StatCard({
  label,
  value,
  testId,
  color,
  compact,
}: {
  label: string;
  value: number | undefined;
  testId: string;
  color?: string;
  compact?: boolean;
}) {
  return (
    <Paper withBorder p={compact ? 'sm' : 'md'} radius="md" style={color ? { borderLeft: `4px solid var(--mantine-color-${color}-6)` } : undefined}>
      <Text size={compact ? 'xs' : 'sm'} c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" data-testid={testId}>
        {value ?? '–'}
      </Text>
    </Paper>
  );
}
