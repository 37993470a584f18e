import type { ReactNode } from 'react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { EmptyState } from './empty-state';
import { adminLoadTexts, isForbidden, QueryLoadState } from './load-state';

type Key = 'title' | 'add' | 'intro' | 'adminsOnly' | 'loadFailed' | 'retry' | 'empty' | 'emptyHelp';

/**
 * An admins' settings page of records (API keys, webhooks): the title with Add (disabled for a reader the server
 * refuses), the intro, then the loader or the failure, the empty state, or the records; `children` follow
 * (dialogs, more sections). The texts are the namespace's keys of the same names.
 */
export function AdminListPage<D>(props: {
  t: (key: Key) => string;
  query: { isPending: boolean; isError: boolean; error: unknown; data?: D; refetch(): unknown };
  isEmpty(data: D): boolean;
  records(data: D): ReactNode;
  /** After the intro's text (e.g. a link to the docs). */
  introMore?: ReactNode;
  onAdd(): void;
  addTestId: string;
  maw: number;
  children?: ReactNode;
}) {
  const { t, query } = props;
  return (
    <Stack gap="md" p="md" maw={props.maw}>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('title')}</Title>
        <Button onClick={props.onAdd} disabled={isForbidden(query.error)} data-testid={props.addTestId}>
          {t('add')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('intro')}
        {props.introMore}
      </Text>
      {query.isPending || query.isError || query.data === undefined ? (
        <QueryLoadState query={query} label={t('title')} texts={adminLoadTexts(t)} />
      ) : props.isEmpty(query.data) ? (
        <EmptyState title={t('empty')} description={t('emptyHelp')} />
      ) : (
        props.records(query.data)
      )}
      {props.children}
    </Stack>
  );
}
