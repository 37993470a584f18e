import type { ReactNode } from 'react';
import { Stack, Text } from '@mantine/core';
import { useCurrentUser } from '../../../web/lib/app-data';

/** An admin's tool of the organisation (its archive out or in): its hint above it; nothing for other roles. */
export function AdminTool({ hint, children }: { hint: string; children: ReactNode }) {
  const isAdmin = useCurrentUser()?.role === 'admin';
  if (!isAdmin) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed">
        {hint}
      </Text>
      {children}
    </Stack>
  );
}
