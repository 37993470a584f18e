import { SimpleGrid, Table } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../web/lib/format';
import { TableHead } from '../../../web/components/table-head';
import type { FailureModeMtbf, FailurePareto } from '../analytics-failures.schema';
import { FigureCard } from './figure-card';
import { useFigure } from './insights-figure-kit';
import '../../failure-codes/ui/failure-code-select';

const pct = (v: number) => `${formatNumber(v, 1)}%`;

/** The insights' failure-code figures (decision 080): failures by problem (Pareto) and MTBF by failure mode. */
export function FailureFigures({ query, enabled }: { query: Record<string, string>; enabled: boolean }) {
  const { t } = useTranslation('failureCodes');
  const pareto = useFigure<FailurePareto>('failure-pareto', query, enabled);
  const modes = useFigure<FailureModeMtbf>('failure-mode-mtbf', query, enabled);
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <FigureCard
        title={t('paretoTitle')}
        help={t('paretoHint')}
        query={pareto}
        testId="insights-failure-pareto"
        isEmpty={(d) => d.total === 0}
        empty={t('noFailures')}
        csv={(d) => d.problems.map((p) => ({ code: p.code, problem: p.name, count: p.count, percent: p.percent, cumulativePercent: p.cumulativePercent }))}
      >
        {(d) => (
          <>
            <BarChart
              h={200}
              data={d.problems.map((p) => ({ name: p.name, count: p.count }))}
              dataKey="name"
              series={[{ name: 'count', label: t('count'), color: 'red.6' }]}
            />
            <Table striped withTableBorder mt="sm" data-testid="failure-pareto-table">
              <TableHead labels={[t('problem'), t('count'), t('share'), t('cumulative')]} />
              <Table.Tbody>
                {d.problems.map((p) => (
                  <Table.Tr key={p.problemCodeId}>
                    <Table.Td>
                      <bdi>{p.name}</bdi>
                    </Table.Td>
                    <Table.Td>{formatNumber(p.count)}</Table.Td>
                    <Table.Td>{pct(p.percent)}</Table.Td>
                    <Table.Td>{pct(p.cumulativePercent)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        )}
      </FigureCard>
      <FigureCard
        title={t('mtbfModeTitle')}
        help={t('mtbfModeHint')}
        query={modes}
        testId="insights-failure-modes"
        isEmpty={(d) => d.modes.length === 0}
        empty={t('noModes')}
        csv={(d) => d.modes.map((m) => ({ asset: m.asset, problem: m.problem, failures: m.failures, intervals: m.intervals, mtbfHours: m.mtbfHours }))}
      >
        {(d) => (
          <Table striped withTableBorder data-testid="failure-modes-table">
            <TableHead labels={[t('asset'), t('problem'), t('failures'), t('mtbfHours')]} />
            <Table.Tbody>
              {d.modes.map((m) => (
                <Table.Tr key={`${m.assetId}:${m.problemCodeId}`}>
                  <Table.Td>
                    <bdi>{m.asset}</bdi>
                  </Table.Td>
                  <Table.Td>
                    <bdi>{m.problem}</bdi>
                  </Table.Td>
                  <Table.Td>{formatNumber(m.failures)}</Table.Td>
                  <Table.Td>{formatNumber(m.mtbfHours, 2)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </FigureCard>
    </SimpleGrid>
  );
}
