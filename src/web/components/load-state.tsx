import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { ApiError } from '../lib/api';

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

/** What QueryLoadState reads of a react-query result. */
interface QueryLike {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch(): unknown;
}

/** LoadState over a react-query result: failed and a 403 read from it, Retry refetches (`pending` default: isPending). */
export function QueryLoadState({
  query,
  pending = query.isPending,
  label,
  texts,
}: {
  query: QueryLike;
  pending?: boolean;
  label: string;
  texts: { forbidden: string; failed: string; retry: string };
}) {
  return (
    <LoadState pending={pending} failed={query.isError} forbidden={isForbidden(query.error)} label={label} texts={texts} onRetry={() => void query.refetch()} />
  );
}

/** The answer was a 403: the reader may not see this. */
export const isForbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

/** The texts of an admins' page (its namespace's adminsOnly, loadFailed and retry). */
export const adminLoadTexts = (t: (key: 'adminsOnly' | 'loadFailed' | 'retry') => string) => ({
  forbidden: t('adminsOnly'),
  failed: t('loadFailed'),
  retry: t('retry'),
});
