import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title, Timeline } from '@mantine/core';
import { DonutChart } from '@mantine/charts';
import { useMediaQuery } from '@mantine/hooks';
import { IconBox, IconMailForward, IconTool, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api';
import { formatDateTime } from '../lib/format';
import { useAppData } from '../lib/app-data';
import type { RecentActivity } from '../../features/activity/activity.schema';
import { recordName } from '../app/record-links';
import { ChartImage } from '../components/chart-image';

/** Spec section 9: the pie's inner radius by screen width (1560, 1280, 1024, 764). */
function useDonutThickness() {
  const xl = useMediaQuery('(min-width: 1560px)');
  const lg = useMediaQuery('(min-width: 1280px)');
  const md = useMediaQuery('(min-width: 1024px)');
  const sm = useMediaQuery('(min-width: 764px)');
  const inner = xl ? 80 : lg ? 70 : md ? 60 : sm ? 40 : 40;
  return { size: inner * 2 + 60, thickness: 30 };
}

function Stat({ label, value, icon }: { label: string; value: number | string; icon: React.ReactNode }) {
  return (
    <Card withBorder radius="md">
      <Group justify="space-between">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            {label}
          </Text>
          <Text fw={800} fz={28}>
            {value}
          </Text>
        </div>
        <ThemeIcon size={44} radius="md" variant="light">
          {icon}
        </ThemeIcon>
      </Group>
    </Card>
  );
}

/** Dashboard (Analytics): the organisation at a glance, from the preloaded data and the latest activity. */
export function AnalyticsPage() {
  const { t } = useTranslation();
  const { data } = useAppData();
  const { size, thickness } = useDonutThickness();
  const recent = useQuery({
    queryKey: ['activities', 'recent'],
    queryFn: ({ signal }) => api.get<{ activities: RecentActivity[] }>('/activities/recent', { signal }),
  });
  const workers = data?.workers ?? [];
  const byRole = (['admin', 'manager', 'worker'] as const).map((role, i) => ({
    name: t(`roles.${role}`),
    value: workers.filter((w) => w.role === role).length,
    color: ['indigo.6', 'teal.6', 'orange.6'][i],
  }));
  const pending = workers.filter((w) => w.inviteStatus === 'PENDING').length;
  return (
    <Stack gap="lg">
      <Title order={2} size="h3">
        {t('analytics.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <Stat label={t('analytics.people')} value={workers.length} icon={<IconUsers size={24} />} />
        <Stat label={t('analytics.pendingInvites')} value={pending} icon={<IconMailForward size={24} />} />
        <Stat label={t('analytics.recentWorkOrders')} value={data?.workOrders.length ?? 0} icon={<IconTool size={24} />} />
        <Stat label={t('analytics.assets')} value={data?.assets.length ?? 0} icon={<IconBox size={24} />} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder radius="md">
          <Text fw={700} mb="md">
            {t('analytics.peopleByRole')}
          </Text>
          <Group justify="center">
            <ChartImage label={t('analytics.peopleByRole')} parts={byRole}>
              <DonutChart data={byRole} size={size} thickness={thickness} withLabelsLine withLabels withTooltip pieProps={{ rootTabIndex: -1 }} />
            </ChartImage>
          </Group>
        </Card>
        <Card withBorder radius="md">
          <Text fw={700} mb="md">
            {t('analytics.latestActivity')}
          </Text>
          {(recent.data?.activities ?? []).length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('shell.noNotifications')}
            </Text>
          ) : (
            <Timeline bulletSize={12} lineWidth={2}>
              {recent.data!.activities.slice(0, 8).map((a) => (
                <Timeline.Item key={a.id}>
                  <Text size="sm">
                    <b>{a.user ? `${a.user.firstName} ${a.user.lastName}`.trim() : t('notes.system')}</b> {t(`shell.activity.${a.action}`, { record: recordName(t, a.entityType, a.entityId) })}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(a.createdAt)}
                  </Text>
                </Timeline.Item>
              ))}
            </Timeline>
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
