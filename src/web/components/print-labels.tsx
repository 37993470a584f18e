import { useState, type ReactNode } from 'react';
import { Button, Checkbox, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useBusyAction } from './use-busy-action';
import type { Column } from './data-table';
import { downloadFile } from '../lib/api';
import { registerTranslations } from '../i18n';
import { LABEL_LAYOUTS, type LabelLayout } from '../../features/request-portal/request-portal.schema';

registerTranslations('labelPrinting', {
  en: {
    labels: 'Print labels',
    failed: 'The action failed',
    layout: 'Label size',
    layouts: {
      'sheet-24': 'A4 sheet, 24 labels (70 × 37 mm)',
      'sheet-10': 'A4 sheet, 10 labels (99 × 57 mm)',
      'single-large': 'One large label (100 × 150 mm)',
    },
    download: 'Download PDF',
    selectPageAssets: 'Choose the assets of this page',
    selectPageStations: 'Choose the work stations of this page',
    selectRow: 'Choose for labels',
    printSelected: 'Print labels ({{count}})',
    labelCount: '{{count}} labels',
  },
  ar: {
    labels: 'طباعة الملصقات',
    failed: 'تعذّر تنفيذ الإجراء',
    layout: 'حجم الملصق',
    layouts: { 'sheet-24': 'ورقة A4، 24 ملصقًا (70 × 37 مم)', 'sheet-10': 'ورقة A4، 10 ملصقات (99 × 57 مم)', 'single-large': 'ملصق كبير واحد (100 × 150 مم)' },
    download: 'تنزيل PDF',
    selectPageAssets: 'اختيار أصول هذه الصفحة',
    selectPageStations: 'اختيار محطات العمل في هذه الصفحة',
    selectRow: 'اختيار للملصقات',
    printSelected: 'طباعة الملصقات ({{count}})',
    labelCount: 'عدد الملصقات: {{count}}',
  },
});

/**
 * Label printing from a list screen (the Assets and Work stations lists, decision 039): a checkbox column
 * whose choice is kept across pages and filters, and a "Print labels" button opening the size choice.
 */
export function useLabelSelection<T extends { id: number }>(rows: T[], what: 'asset' | 'work-station') {
  const { t } = useTranslation('labelPrinting');
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
  const { t } = useTranslation('labelPrinting');
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
  const { t } = useTranslation('labelPrinting');
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
