import { useMemo } from 'react';
import { Card, SegmentedControl, Select, SimpleGrid, Stack, Group, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAppData } from '../../../web/lib/app-data';
import { AssetSelect } from '../../assets/ui/asset-select';
import { LocationIdFilter } from '../../locations/ui/location-filter-select';
import { AssetCategorySelect } from '../../master-data/ui/asset-category-select';
import { TeamSelect } from '../../teams/ui/team-select';
import { WorkStationSelect } from '../../work-stations/ui/work-station-select';
import { RANGE_PRESETS } from '../analytics.schema';
import type { useInsightsParams } from './insights-figure-kit';

/** The range and, for managers, the asset, category, location (and everything under it), station, team and assignee filters; all in the URL. */
export function InsightsFilters({ params, isManager }: { params: ReturnType<typeof useInsightsParams>; isManager: boolean }) {
  const { t } = useTranslation();
  const { data: appData } = useAppData();
  const { query, range, set, filterId } = params;
  /** A picker's value and change, bound to one filter of the address. */
  const bind = (key: 'assetId' | 'assetCategoryId' | 'workStationId' | 'teamId') => ({
    value: filterId(key),
    onChange: (v: number | null) => set({ [key]: v ? String(v) : null }),
  });
  const workers = useMemo(
    () => (appData?.workers ?? []).map((w) => ({ value: String(w.id), label: `${w.firstName} ${w.lastName}`.trim() || w.email })),
    [appData?.workers],
  );
  return (
    <Card withBorder radius="md" className="insights-no-print">
      <Stack gap="sm">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('insights.range.label')}
            </Text>
            <SegmentedControl
              value={range}
              onChange={(v) => set({ range: v, ...(v === 'custom' ? {} : { from: null, to: null }) })}
              data={RANGE_PRESETS.map((p) => ({ value: p, label: t(`insights.range.${p}`) }))}
              data-testid="insights-range"
            />
          </div>
          {range === 'custom' && (
            <>
              {(['from', 'to'] as const).map((end) => (
                <TextInput
                  key={end}
                  type="date"
                  label={t(`insights.range.${end}`)}
                  value={query[end] ?? ''}
                  onChange={(e) => set({ [end]: e.currentTarget.value })}
                  data-testid={`insights-${end}`}
                />
              ))}
            </>
          )}
        </Group>
        {isManager && (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 6 }}>
            <AssetSelect label={t('insights.filters.asset')} {...bind('assetId')} allowAddNew={false} testId="insights-asset" />
            <AssetCategorySelect label={t('insights.filters.assetCategory')} {...bind('assetCategoryId')} allowAddNew={false} />
            <LocationIdFilter
              label={t('insights.filters.location')}
              value={filterId('locationId')}
              onChange={(v) => set({ locationId: v === null ? null : String(v) })}
              testId="insights-location"
            />
            <WorkStationSelect label={t('insights.filters.workStation')} {...bind('workStationId')} allowAddNew={false} />
            <TeamSelect label={t('insights.filters.team')} {...bind('teamId')} />
            <Select
              label={t('insights.filters.assignee')}
              data={workers}
              searchable
              clearable
              value={query.assigneeId ?? null}
              onChange={(v) => set({ assigneeId: v })}
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>
        )}
      </Stack>
    </Card>
  );
}
