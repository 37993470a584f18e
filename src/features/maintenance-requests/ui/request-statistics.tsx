import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { DonutChart } from '@mantine/charts';
import { useTranslation } from 'react-i18next';
import { StatCard } from '../../../web/components';
import type { MaintenanceRequestStatistics } from '../maintenance-requests.schema';

function Figure(props: { label: string; value: number | undefined; testId: string }) {
  return <StatCard {...props} compact />;
}

function Pair(props: {
  title: string;
  a: { label: string; value: number; color: string };
  b: { label: string; value: number; color: string };
  testId: string;
}) {
  const total = props.a.value + props.b.value;
  return (
    <Paper withBorder p="sm" radius="md" data-testid={props.testId}>
      <Text size="xs" c="dimmed" mb={4}>
        {props.title}
      </Text>
      <Group wrap="nowrap" gap="sm" align="center">
        {/* decorative: the figures are written beside it (inert: out of the tab order and the accessibility tree) */}
        <div inert>
          <DonutChart
            size={80}
            thickness={12}
            withTooltip={false}
            data={
              total
                ? [
                    { name: props.a.label, value: props.a.value, color: props.a.color },
                    { name: props.b.label, value: props.b.value, color: props.b.color },
                  ]
                : [{ name: '', value: 1, color: 'gray.3' }]
            }
          />
        </div>
        <Stack gap={2}>
          <Text size="sm">
            <Text span c={props.a.color} fw={700}>
              ●
            </Text>{' '}
            {props.a.label}: <b>{props.a.value}</b>
          </Text>
          <Text size="sm">
            <Text span c={props.b.color} fw={700}>
              ●
            </Text>{' '}
            {props.b.label}: <b>{props.b.value}</b>
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}

/** The side panel's counters, as the server computed them (figures and two donut charts). */
export function RequestStatistics({ statistics: s }: { statistics: MaintenanceRequestStatistics | undefined }) {
  const { t } = useTranslation('maintenanceRequests');
  return (
    <Stack gap="sm" data-testid="request-statistics">
      <SimpleGrid cols={2} spacing="sm">
        <Figure label={t('stats.totalNew')} value={s?.totalNewRequests} testId="stat-new" />
        <Figure label={t('stats.totalApproved')} value={s?.totalApprovedRequests} testId="stat-approved" />
      </SimpleGrid>
      <Pair
        title={t('stats.approvedVsRejected')}
        testId="stat-approved-vs-rejected"
        a={{ label: t('stats.approved'), value: s?.approvedVsRejected.approved ?? 0, color: 'green.6' }}
        b={{ label: t('stats.rejected'), value: s?.approvedVsRejected.rejected ?? 0, color: 'red.6' }}
      />
      <Pair
        title={t('stats.employeeVsCustomer')}
        testId="stat-employee-vs-customer"
        a={{ label: t('stats.employee'), value: s?.employeeVsCustomer.employee ?? 0, color: 'blue.6' }}
        b={{ label: t('stats.customer'), value: s?.employeeVsCustomer.customer ?? 0, color: 'grape.6' }}
      />
      <Figure label={t('stats.unassigned')} value={s?.unassignedRequests} testId="stat-unassigned" />
    </Stack>
  );
}
