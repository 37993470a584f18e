import { useState } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Loader, Menu, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState, ExportButton, confirmAction, notifyError, notifySuccess } from '../../../web/components';
import { api, errorMessage } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { formatDateTime, formatNumber } from '../../../web/lib/format';
import type { MeterDto } from '../meters.schema';
import { ImportDialog, MeterDialog, ReadingDialog, type MeterList } from './meter-dialogs';
import { MeterChart, MeterLoadFailed, readingsKey } from './meter-chart';
import './meters-i18n';

export const metersKey = (assetId: number) => ['meters', 'asset', assetId] as const;

type Dialog = { kind: 'meter'; meter: MeterDto | null } | { kind: 'reading'; meter: MeterDto } | { kind: 'import' } | null;

/**
 * The "Meters" section of an asset (decision 031): its meters with their latest reading, a reading entered by
 * anyone, a chart per meter, a CSV import; managers add, edit and delete meters. Embedded by the asset drawer.
 */
export function AssetMetersPanel({ assetId }: { assetId: number }) {
  const { t } = useTranslation('meters');
  const isManager = useIsManager();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [charted, setCharted] = useState<number | null>(null);
  const query = useQuery({
    queryKey: metersKey(assetId),
    queryFn: ({ signal }) => api.get<MeterList>('/meters/list-meters', { query: { assetId }, signal }),
  });
  // A save answers with the asset's refreshed meters; the open chart reads its readings again.
  const saved = (list: MeterList) => {
    queryClient.setQueryData(metersKey(assetId), { meters: list.meters });
    void queryClient.invalidateQueries({ queryKey: ['meters', 'readings'] });
  };
  const remove = async (meter: MeterDto) => {
    if (!(await confirmAction({ title: t('delete'), message: t('confirmDelete', { name: meter.name }), confirmLabel: t('common:actions.delete') }))) return;
    try {
      saved(await api.del<MeterList>(`/meters/delete-meter/${meter.id}`));
      queryClient.removeQueries({ queryKey: readingsKey(meter.id) });
      notifySuccess(t('deleted'));
    } catch (err) {
      notifyError(errorMessage(err, t('deleteFailed')));
    }
  };

  const meters = query.data?.meters ?? [];
  return (
    <Stack gap="sm" data-testid="asset-meters">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={600}>{t('tab')}</Text>
        <Group gap="xs">
          {meters.length > 0 && (
            <Button size="xs" variant="default" onClick={() => setDialog({ kind: 'import' })} data-testid="meters-import">
              {t('import')}
            </Button>
          )}
          {meters.length > 0 && <ExportButton list="meter-readings" query={{ assetId }} columns={[]} size="xs" testId="meters-export" />}
          {isManager && (
            <Button size="xs" onClick={() => setDialog({ kind: 'meter', meter: null })} data-testid="meters-add">
              {t('add')}
            </Button>
          )}
        </Group>
      </Group>

      {query.isLoading && <Loader size="sm" data-testid="meters-loading" />}
      {query.isError && <MeterLoadFailed query={query} testId="meters-error" />}
      {query.isSuccess && meters.length === 0 && <EmptyState title={t('empty')} description={isManager ? t('emptyHelp') : t('emptyWorker')} />}

      {meters.map((meter) => (
        <Card key={meter.id} withBorder padding="sm" data-testid="meter-card">
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Group gap="xs" wrap="wrap">
                <Text fw={600} data-testid="meter-card-name">
                  {meter.name}
                </Text>
                <Badge variant="light" tt="none" color={meter.kind === 'counter' ? 'blue' : 'grape'}>
                  {t(`kinds.${meter.kind}`)} · <bdi>{meter.unit}</bdi>
                </Badge>
              </Group>
              {meter.description && (
                <Text size="xs" c="dimmed">
                  {meter.description}
                </Text>
              )}
              {meter.latestReading ? (
                <Text size="sm" data-testid="meter-latest">
                  {t('latest')}:{' '}
                  <b>
                    {formatNumber(meter.latestReading.value, 4)} {meter.unit}
                  </b>{' '}
                  <Text span size="xs" c="dimmed">
                    {formatDateTime(meter.latestReading.readAt)}
                    {meter.latestReading.recordedBy ? ` · ${t('by', { name: meter.latestReading.recordedBy })}` : ''}
                  </Text>
                </Text>
              ) : (
                <Text size="sm" c="dimmed" data-testid="meter-latest">
                  {t('noReadings')}
                </Text>
              )}
            </Stack>
            {isManager && (
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <ActionIcon variant="subtle" aria-label={t('actions')} data-testid="meter-menu">
                    ⋯
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => setDialog({ kind: 'meter', meter })} data-testid="meter-edit">
                    {t('edit')}
                  </Menu.Item>
                  <Menu.Item color="red" c="var(--mantine-color-red-text)" onClick={() => void remove(meter)} data-testid="meter-delete">
                    {t('delete')}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
          <Group gap="xs" mt="xs">
            <Button size="xs" variant="light" onClick={() => setDialog({ kind: 'reading', meter })} data-testid="meter-enter-reading">
              {t('enterReading')}
            </Button>
            <Button
              size="xs"
              variant="subtle"
              onClick={() => setCharted(charted === meter.id ? null : meter.id)}
              aria-expanded={charted === meter.id}
              data-testid="meter-toggle-chart"
            >
              {charted === meter.id ? t('hideChart') : t('chart')}
            </Button>
          </Group>
          {charted === meter.id && (
            <Stack mt="sm">
              <MeterChart meter={meter} />
            </Stack>
          )}
        </Card>
      ))}

      {dialog?.kind === 'meter' && <MeterDialog assetId={assetId} meter={dialog.meter} onClose={() => setDialog(null)} onSaved={saved} />}
      {dialog?.kind === 'reading' && <ReadingDialog meter={dialog.meter} onClose={() => setDialog(null)} onSaved={saved} />}
      {dialog?.kind === 'import' && <ImportDialog assetId={assetId} onClose={() => setDialog(null)} onSaved={saved} />}
    </Stack>
  );
}
