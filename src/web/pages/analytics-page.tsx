import { Anchor, Badge, Card, ColorSwatch, Group, SimpleGrid, Stack, Text, ThemeIcon, Title, Timeline, UnstyledButton } from '@mantine/core';
import { DonutChart } from '@mantine/charts';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconCalendarDue, IconCalendarRepeat, IconInbox, IconPackageOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../lib/api';
import { displayTimeZone, formatDateTime, formatNumber } from '../lib/format';
import { useAppData, useIsManager } from '../lib/app-data';
import type { Attention, LatestActivity } from '../../features/dashboard/dashboard.schema';
import { OPEN_REQUEST_STATES } from '../../features/dashboard/dashboard.schema';
import { namedRecord, recordLink } from '../app/record-links';
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

/** The reader's time zone: where their "today" starts. */
/** The dashboard's days: the organisation's, as the times shown (decision 064); the browser's before it is known. */
const readerTimeZone = () => displayTimeZone() ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Each figure and the list it opens (decision 066): the list's query string is the figure's filter, so the
 * list shows exactly the rows counted.
 */
export const ATTENTION_LINKS: Record<keyof Attention, { href: string; icon: typeof IconInbox; color: string }> = {
  overdue: { href: '/dashboard/work-orders?due=overdue', icon: IconAlertTriangle, color: 'red' },
  dueToday: { href: '/dashboard/work-orders?due=today', icon: IconCalendarDue, color: 'orange' },
  openRequests: { href: `/dashboard/maintenance-request?${OPEN_REQUEST_STATES.map((s) => `status=${s}`).join('&')}`, icon: IconInbox, color: 'blue' },
  pmDueThisWeek: { href: '/dashboard/work-orders?due=week&pm=true', icon: IconCalendarRepeat, color: 'teal' },
  partsBelowMinimum: { href: '/dashboard/parts-inventory?lowStock=true', icon: IconPackageOff, color: 'grape' },
};

function AttentionFigure({ name, value }: { name: keyof Attention; value: number | undefined }) {
  const { t } = useTranslation();
  const { href, icon: Icon, color } = ATTENTION_LINKS[name];
  const label = t(`analytics.attention.${name}`);
  const shown = value === undefined ? '…' : formatNumber(value);
  return (
    <UnstyledButton component={Link} to={href} aria-label={t('analytics.openList', { label, count: shown })} data-testid={`attention-${name}`}>
      <Card withBorder radius="md" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div>
            <Text size="sm" c="dimmed" fw={600}>
              {label}
            </Text>
            {/* A space between the label and its figure: the visible text reads "Overdue work 23", not "Overdue work23",
                so the link's name (the label, then the figure) holds it (WCAG 2.5.3, label in name). */}{' '}
            <Text fw={800} fz={28} c={value ? `${color}.8` : undefined}>
              {shown}
            </Text>
          </div>
          <ThemeIcon size={40} radius="md" variant="light" color={color} aria-hidden>
            <Icon size={22} />
          </ThemeIcon>
        </Group>
      </Card>
    </UnstyledButton>
  );
}

/** A chart's legend: each part's colour, name and figure, in text (the drawing alone names nothing). */
function ChartLegend({ parts }: { parts: { name: string; value: number; color: string }[] }) {
  return (
    <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="chart-legend">
      {parts.map((p) => (
        <Group key={p.name} gap="xs" component="li" wrap="nowrap">
          <ColorSwatch color={`var(--mantine-color-${p.color.replace('.', '-')})`} size={14} aria-hidden />
          <Text size="sm">{p.name}</Text>
          <Text size="sm" fw={700}>
            {formatNumber(p.value)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

function ActivityLine({ a }: { a: LatestActivity }) {
  const { t } = useTranslation();
  const record = namedRecord(t, a.entityType, a.entityId, a.name);
  const link = a.action === 'deleted' ? undefined : recordLink(a.entityType, a.entityId);
  const who = a.user ? `${a.user.firstName} ${a.user.lastName}`.trim() : (a.contractor ?? t('notes.system'));
  const text = t(`shell.activity.${a.action}`, { record });
  return (
    <>
      <Text size="sm" component="div">
        <b>{who}</b>{' '}
        {link ? (
          <Anchor component={Link} to={link} inherit>
            {text}
          </Anchor>
        ) : (
          text
        )}
        {a.repeats > 1 && (
          <Badge ms="xs" size="sm" variant="light" data-testid="activity-repeats">
            {t('analytics.repeats', { count: a.repeats })}
          </Badge>
        )}
      </Text>
      <Text size="xs" c="dimmed">
        {formatDateTime(a.createdAt)}
      </Text>
    </>
  );
}

/** Dashboard: what needs attention (each figure opens its list), the people, and the latest activity. */
export function AnalyticsPage() {
  const { t } = useTranslation();
  const { data } = useAppData();
  const isManager = useIsManager();
  const { size, thickness } = useDonutThickness();
  const timeZone = readerTimeZone();
  const attention = useQuery({
    queryKey: ['dashboard', 'attention', timeZone],
    queryFn: ({ signal }) => api.get<{ attention: Attention }>('/dashboard/get-attention', { query: { timeZone }, signal }),
  });
  const recent = useQuery({
    queryKey: ['dashboard', 'latest-activity'],
    queryFn: ({ signal }) => api.get<{ activities: LatestActivity[] }>('/dashboard/get-latest-activity', { signal }),
  });
  const workers = data?.workers ?? [];
  const byRole = (['admin', 'manager', 'worker'] as const).map((role, i) => ({
    name: t(`roles.${role}`),
    value: workers.filter((w) => w.role === role).length,
    color: ['indigo.6', 'teal.6', 'orange.6'][i],
  }));
  const figures = attention.data?.attention;
  const activities = recent.data?.activities ?? [];
  return (
    <Stack gap="lg">
      <Title order={2} size="h3">
        {t('analytics.title')}
      </Title>
      <section aria-labelledby="needs-attention">
        <Group gap="xs" mb="sm">
          <Title order={3} size="h5" id="needs-attention">
            {t('analytics.needsAttention')}
          </Title>
          {!isManager && (
            <Text size="sm" c="dimmed">
              ({t('analytics.mineNote')})
            </Text>
          )}
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 5 }} data-testid="attention">
          {(Object.keys(ATTENTION_LINKS) as (keyof Attention)[]).map((name) => (
            <AttentionFigure key={name} name={name} value={figures?.[name]} />
          ))}
        </SimpleGrid>
      </section>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder radius="md">
          <Title order={3} size="h5" mb="md">
            {t('analytics.peopleByRole')}
          </Title>
          <Group justify="center" gap="xl">
            <ChartImage label={t('analytics.peopleByRole')} parts={byRole}>
              <DonutChart data={byRole} size={size} thickness={thickness} withTooltip pieProps={{ rootTabIndex: -1 }} />
            </ChartImage>
            <ChartLegend parts={byRole} />
          </Group>
        </Card>
        <Card withBorder radius="md">
          <Title order={3} size="h5" mb="md">
            {t('analytics.latestActivity')}
          </Title>
          {activities.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('shell.noNotifications')}
            </Text>
          ) : (
            <Timeline bulletSize={12} lineWidth={2} data-testid="latest-activity">
              {activities.slice(0, 8).map((a) => (
                <Timeline.Item key={a.id}>
                  <ActivityLine a={a} />
                </Timeline.Item>
              ))}
            </Timeline>
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
