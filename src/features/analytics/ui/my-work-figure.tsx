import { Anchor, Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatNumber } from '../../../web/lib/format';
import type { MyWorkFigures } from '../analytics.schema';
import { FigureCard } from './figure-card';
import { hours } from './insights-figure-kit';

/** The signed-in person's own view: open orders, hours this week, completed on time. */
export function MyWorkFigure({ mine }: { mine: UseQueryResult<MyWorkFigures> }) {
  const { t } = useTranslation();
  const catLabel = (c: string) => t(`insights.categories.${c}`);
  return (
    <FigureCard
      name="mine"
      query={mine}
      csv={(d) => d.open.map((w) => ({ id: w.id, title: w.title, status: w.status, priority: w.priority, dueDate: w.dueDate ?? '', overdue: w.overdue }))}
    >
      {(d) => (
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {t('insights.mine.open')}: {formatNumber(d.openCount)}
            </Text>
            {d.open.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('insights.mine.empty')}
              </Text>
            ) : (
              d.open.map((w) => (
                <Group key={w.id} gap="xs" wrap="nowrap">
                  <Anchor component={Link} to={`/dashboard/work-orders?open=${w.id}`} size="sm">
                    {w.title}
                  </Anchor>
                  {w.overdue && (
                    <Badge size="xs" color="red" variant="light">
                      {t('insights.mine.overdue')}
                    </Badge>
                  )}
                </Group>
              ))
            )}
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {t('insights.mine.hoursWeek')}
            </Text>
            {d.hoursThisWeek.map((h) => (
              <Text size="sm" key={h.reasonId}>
                {h.name} ({catLabel(h.category)}): {hours(h.hours)} h
              </Text>
            ))}
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {t('insights.mine.completed')}: {formatNumber(d.completed)}
            </Text>
            <Text size="sm">
              {t('insights.mine.onTime')}: {formatNumber(d.completedOnTime)} / {formatNumber(d.completedWithDue)}
            </Text>
          </Stack>
        </SimpleGrid>
      )}
    </FigureCard>
  );
}
