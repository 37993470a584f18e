import { useState, type ReactNode } from 'react';
import { Button, Checkbox, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useBusyAction, type Column } from '../../../web/components';
import { downloadFile } from '../../../web/lib/api';
import { LABEL_LAYOUTS, type LabelLayout } from '../request-portal.schema';
import './labels';

/**
 * Label printing from a list screen (the Assets and Work stations lists, decision 039): a checkbox column
 * whose choice is kept across pages and filters, and a "Print labels" button opening the size choice.
 * The lists import this file (eslint.config.js allows it beside their *-select pickers).
 */
export function useLabelSelection<T extends { id: number }>(rows: T[], what: 'asset' | 'work-station') {
  const { t } = useTranslation('portal');
  const [ids, setIds] = useState<number[]>([]);
  const pageIds = rows.map((r) => r.id);
  const all = pageIds.length > 0 && pageIds.every((id) => ids.includes(id));
  const some = pageIds.some((id) => ids.includes(id));
  const set = (chosen: number[], on: boolean) => setIds((prev) => (on ? [...new Set([...prev, ...chosen])] : prev.filter((id) => !chosen.includes(id))));
  const column: Column<T> = {
    key: 'select',
    hideable: false,
    width: 40,
    header: (
      <Checkbox
        aria-label={t(what === 'asset' ? 'selectPageAssets' : 'selectPageStations')}
        checked={all}
        indeterminate={some && !all}
        onChange={(e) => set(pageIds, e.currentTarget.checked)}
        data-testid="labels-select-page"
      />
    ),
    render: (row) => (
      // A click on the box chooses the row; it does not open the row's drawer.
      <div onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
        <Checkbox
          aria-label={t('selectRow')}
          checked={ids.includes(row.id)}
          onChange={(e) => set([row.id], e.currentTarget.checked)}
          data-testid={`labels-select-${row.id}`}
        />
      </div>
    ),
  };
  return { ids, column, clear: () => setIds([]) };
}

/** "Print labels (n)": opens the label size choice for the chosen rows. */
export function PrintLabelsButton({ assetIds = [], workStationIds = [] }: { assetIds?: number[]; workStationIds?: number[] }) {
  const { t } = useTranslation('portal');
  const [open, setOpen] = useState(false);
  const n = assetIds.length + workStationIds.length;
  return (
    <>
      <Button variant="default" leftSection={<IconQrcode size={16} />} disabled={n === 0} onClick={() => setOpen(true)} data-testid="labels-print">
        {n ? t('printSelected', { count: n }) : t('labels')}
      </Button>
      {open && <PrintLabelsModal assetIds={assetIds} workStationIds={workStationIds} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The label size, then the PDF (POST /api/portal/asset-labels) downloaded. `children`: a picker of what to print, if the caller has one. */
export function PrintLabelsModal({
  assetIds,
  workStationIds = [],
  onClose,
  children,
}: {
  assetIds: number[];
  workStationIds?: number[];
  onClose(): void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('portal');
  const [layout, setLayout] = useState<LabelLayout>('sheet-24');
  const { busy, run: withBusy } = useBusyAction();
  const n = assetIds.length + workStationIds.length;
  const download = async () => {
    await withBusy(async () => {
      await downloadFile('/portal/asset-labels', 'labels.pdf', { body: { assetIds, workStationIds, layout } });
      onClose();
    }, t('failed'));
  };
  return (
    <Modal opened onClose={onClose} title={t('labels')} data-testid="portal-labels">
      <Stack gap="sm">
        {children ?? <Text size="sm">{t('labelCount', { count: n })}</Text>}
        <Select
          label={t('layout')}
          value={layout}
          onChange={(v) => setLayout((v as LabelLayout) ?? 'sheet-24')}
          data={LABEL_LAYOUTS.map((l) => ({ value: l, label: t(`layouts.${l}`) }))}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="portal-label-layout"
        />
        <Group justify="flex-end">
          <Button loading={busy} disabled={!n} onClick={() => void download()} data-testid="portal-labels-download">
            {t('download')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
