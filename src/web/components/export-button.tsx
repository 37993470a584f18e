import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../lib/api';
import { useBusyAction } from './use-busy-action';

/**
 * Downloads a list as CSV through `GET /api/data-transfer/export/{list}` (decision 042): its filters (not its
 * page) and its visible columns, in their order (none: all of the list's). The list kit shows it for a screen
 * given `exportList`.
 */
export function ExportButton({
  list,
  query,
  columns,
  size,
  testId = 'export-list',
}: {
  list: string;
  query: Record<string, unknown>;
  columns: string[];
  size?: 'xs' | 'sm';
  testId?: string;
}) {
  const { t } = useTranslation();
  const { busy, run: withBusy } = useBusyAction();
  const run = async () => {
    await withBusy(async () => {
      const { page: _page, pageSize: _size, ...filters } = query;
      await downloadFile(`/data-transfer/export/${list}`, `${list}.csv`, { query: { ...(filters as Record<string, string>), columns: columns.join(',') } });
    }, t('dataTransfer.exportFailed'));
  };
  return (
    <Button size={size} variant="default" leftSection={<IconDownload size={16} />} onClick={() => void run()} loading={busy} data-testid={testId}>
      {t('dataTransfer.export')}
    </Button>
  );
}
