import { useCallback, useState } from 'react';
import { Card, Title } from '@mantine/core';
import { ChangeRefused } from './my-work-sync';
import { TOUCH } from './sync-indicator';

/** The phone's big buttons: a thumb's height. */
export const big = { size: 'lg', h: TOUCH + 8 } as const;

/**
 * A queued change and the message of its refusal: the route's schema checks it before it is queued
 * (`ChangeRefused`), and the message is shown at the field. `run` resolves true when the change was queued.
 */
export function useQueued() {
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (change: () => Promise<unknown>) => {
    try {
      await change();
      setError(null);
      return true;
    } catch (err) {
      if (!(err instanceof ChangeRefused)) throw err;
      setError(err.message);
      return false;
    }
  }, []);
  return { error, run, refuse: setError, clear: () => setError(null) };
}

/** A card of the order screen with its title. */
export function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}
