import { Alert, Button, Group, Loader, Text } from '@mantine/core';

/**
 * What a page shows while its data loads or after the load failed: a loader, or an alert that says why (a 403
 * is said as "who may see this", without a Retry that cannot help). Null once the data is there.
 */
export function LoadState({
  pending,
  failed,
  forbidden,
  label,
  texts,
  onRetry,
}: {
  pending: boolean;
  failed: boolean;
  forbidden: boolean;
  /** The loader's accessible name (the page's title). */
  label: string;
  texts: { forbidden: string; failed: string; retry: string };
  onRetry: () => void;
}) {
  if (pending) {
    return (
      <Group justify="center" p="xl">
        <Loader aria-label={label} />
      </Group>
    );
  }
  if (!failed) return null;
  return (
    <Alert color={forbidden ? 'yellow' : 'red'} role="alert">
      <Group justify="space-between">
        <Text size="sm">{forbidden ? texts.forbidden : texts.failed}</Text>
        {!forbidden && (
          <Button size="xs" variant="light" onClick={onRetry}>
            {texts.retry}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
