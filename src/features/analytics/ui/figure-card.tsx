import type { ReactNode } from 'react';
import { ActionIcon, Button, Card, Group, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconInfoCircle } from '@tabler/icons-react';
import { QueryLoadState } from '../../../web/components';
import { useTranslation } from 'react-i18next';
import './insights-i18n';
import type { UseQueryResult } from '@tanstack/react-query';
import { downloadCsv } from './csv';

/**
 * A figure's texts and test id: given, or by its name (`insights.<name>.title`, `.help`, `.empty`; test id
 * `insights-<name in kebab case>`).
 */
type FigureTexts = { name: string } | { title: string; help: string; empty: string; testId: string };

function figureTexts(texts: FigureTexts, t: (key: string) => string) {
  if (!('name' in texts)) return texts;
  const { name } = texts;
  const key = (k: string) => t(`insights.${name}.${k}`);
  return { title: key('title'), help: key('help'), empty: key('empty'), testId: `insights-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` };
}

/**
 * One figure of the insights screen: its title and help text, a skeleton while it loads, what failed with Retry,
 * an empty state that says what to record, and a CSV of its rows.
 */
export function FigureCard<T>({
  query,
  isEmpty,
  csv,
  children,
  ...named
}: FigureTexts & {
  query: UseQueryResult<T>;
  isEmpty?: (data: T) => boolean;
  /** The rows of the CSV export (file name from testId). */
  csv?: (data: T) => Record<string, unknown>[];
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const { title, help, empty, testId } = figureTexts(named, t);
  const data = query.data;
  return (
    <Card withBorder radius="md" className="insights-card" data-testid={testId}>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Group gap={6} wrap="nowrap">
          <Text fw={700}>{title}</Text>
          <Tooltip label={help} multiline w={300} withArrow events={{ hover: true, focus: true, touch: true }}>
            <ActionIcon variant="subtle" size="sm" color="gray" aria-label={help}>
              <IconInfoCircle size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
        {csv && data !== undefined && (
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconDownload size={14} />}
            className="insights-no-print"
            onClick={() => downloadCsv(testId, csv(data))}
            data-testid={`${testId}-csv`}
          >
            {t('insights.exportCsv')}
          </Button>
        )}
      </Group>
      <Text size="xs" c="dimmed" mb="sm" className="insights-help">
        {help}
      </Text>
      {query.isPending ? (
        <Stack gap="xs" data-testid={`${testId}-loading`}>
          <Skeleton h={18} w="40%" />
          <Skeleton h={160} />
        </Stack>
      ) : query.isError ? (
        <div data-testid={`${testId}-error`}>
          <QueryLoadState
            query={query}
            pending={false}
            label={title}
            texts={{
              forbidden: t('insights.forbidden'),
              failed: `${t('insights.failed', { figure: title })} ${query.error instanceof Error ? query.error.message : ''}`,
              retry: t('insights.retry'),
            }}
          />
        </div>
      ) : data !== undefined && isEmpty?.(data) ? (
        <Text size="sm" c="dimmed" py="lg" ta="center" data-testid={`${testId}-empty`}>
          {empty}
        </Text>
      ) : (
        data !== undefined && children(data)
      )}
    </Card>
  );
}
