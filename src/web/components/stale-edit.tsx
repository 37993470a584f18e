import { useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api';

/** The server's 409 for an edit made from an older copy of the record: it carries `current` (decision 025). */
export function isStaleEdit(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 409 && 'current' in err.body;
}

/** "Changed by someone else" in a drawer, with the Reload button. */
export function StaleEditAlert({ onReload, reloading }: { onReload(): void; reloading?: boolean }) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" variant="light" title={t('staleEdit.title')} mb="md" data-testid="stale-edit-alert">
      <Group justify="space-between" gap="sm">
        <Text size="sm">{t('staleEdit.message')}</Text>
        <Button size="xs" color="orange" onClick={onReload} loading={reloading} data-testid="stale-edit-reload">
          {t('staleEdit.reload')}
        </Button>
      </Group>
    </Alert>
  );
}

/**
 * A drawer's answer to a stale edit: pass `onStale` to the save handler and `alert` to the RecordDrawer;
 * Reload runs `reload` (fetch the record again and reset the form to it) and hides the alert.
 */
export function useStaleEdit(reload: () => Promise<unknown>) {
  const [stale, setStale] = useState(false);
  const [reloading, setReloading] = useState(false);
  const onReload = async () => {
    setReloading(true);
    try {
      await reload();
      setStale(false);
    } finally {
      setReloading(false);
    }
  };
  return {
    onStale: () => setStale(true),
    alert: stale ? <StaleEditAlert onReload={() => void onReload()} reloading={reloading} /> : null,
  };
}

/**
 * A list row's drawer over a versioned record (assets, parts): the copy shown (`current`), `show` that takes a
 * newer copy and resets the form to it (after a save), and the stale-edit answer whose Reload fetches it again.
 */
export function useVersionedRecord<T extends { id: number }>(record: T | null, { fetch, reset }: { fetch(id: number): Promise<T>; reset(record: T): void }) {
  const [current, setCurrent] = useState(record);
  const show = (next: T) => {
    setCurrent(next);
    reset(next);
  };
  // Saved from an older version (decision 025): Reload fetches the record again and resets the form to it.
  const staleEdit = useStaleEdit(async () => {
    if (current) show(await fetch(current.id));
  });
  return { current, setCurrent, show, staleEdit };
}
