import { useEffect, useRef, type ReactNode } from 'react';
import { ActionIcon, Box, Group, Stack, Text, Title, useDirection } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { SyncIndicator, TOUCH } from './sync-indicator';

/**
 * A technician's screen over the list (an order, the count): full screen, a sticky header with Back, the heading
 * (focused as the screen opens and when `focusKey` changes) and the sync state, then a phone-width column.
 * Escape goes back, except in an open dropdown (the combobox marks its input: Escape closes the dropdown only).
 */
export function SubScreen(props: {
  testId: string;
  /** The heading's id (the dialog's label). */
  titleId: string;
  title: ReactNode;
  /** A small line above the heading (the order's number). */
  overline?: ReactNode;
  onBack(): void;
  backLabel: string;
  backTestId: string;
  focusKey?: unknown;
  children: ReactNode;
}) {
  const { dir } = useDirection();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [props.focusKey]);
  return (
    <Box
      role="dialog"
      aria-modal="true"
      aria-labelledby={props.titleId}
      data-testid={props.testId}
      style={{ position: 'fixed', inset: 0, zIndex: 200, overflowY: 'auto', background: 'var(--mantine-color-body)' }}
      onKeyDown={(e) => {
        const target = e.target instanceof Element ? e.target : null;
        if (e.key === 'Escape' && target?.getAttribute('data-mantine-stop-propagation') !== 'true') props.onBack();
      }}
    >
      <Group
        component="header"
        gap="xs"
        px="xs"
        py={6}
        wrap="nowrap"
        style={{
          position: 'sticky',
          top: 0,
          zIndex: 1,
          background: 'var(--mantine-color-body)',
          borderBottom: '1px solid var(--mantine-color-default-border)',
        }}
      >
        <ActionIcon size={TOUCH} variant="subtle" onClick={props.onBack} aria-label={props.backLabel} data-testid={props.backTestId}>
          <IconArrowLeft style={{ transform: dir === 'rtl' ? 'scaleX(-1)' : undefined }} />
        </ActionIcon>
        <Box style={{ flex: 1, minWidth: 0 }}>
          {props.overline && (
            <Text size="xs" c="dimmed">
              {props.overline}
            </Text>
          )}
          <Title order={2} size="h5" lineClamp={1} id={props.titleId} tabIndex={-1} ref={headingRef}>
            {props.title}
          </Title>
        </Box>
        <SyncIndicator />
      </Group>
      <Stack gap="md" p="md" maw={640} mx="auto" pb={80}>
        {props.children}
      </Stack>
    </Box>
  );
}
