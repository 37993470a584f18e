import { useMemo, useState } from 'react';
import { Button, Group, Text, TextInput } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '../../shared/page-sizes';
import { readLocal, writeLocal } from '../lib/local-store';
import { ColumnChooser, DataTable, PageSize, useColumnChoice, type DataTableProps } from './data-table';
import { ExportButton } from './export-button';

export interface ClientDataTableProps<T> extends Pick<DataTableProps<T>, 'tableId' | 'columns' | 'rows' | 'rowKey' | 'loading' | 'onRowClick'> {
  /** Placeholder of the search box ("Find Team"). */
  searchPlaceholder: string;
  /** Text a row is searched by (case-insensitive contains). Defaults to every string field. */
  searchText?: (row: T) => string;
  /** Default page size 25 (spec); the user's choice is remembered per table. */
  defaultPageSize?: number;
  /** The last load failed: said in place with Retry, never "No results / 0 rows". */
  failed?: boolean;
  onRetry?: () => void;
  /** The list's name for `GET /api/data-transfer/export/{list}`: an Export button sends the search (as `name`) and the visible columns. */
  exportList?: string;
}

/**
 * The client-paged table of master-data lists: search box, rows-per-page (default 25, remembered),
 * "Page X of Y" with previous/next, total rows, column chooser.
 */
export function ClientDataTable<T>(props: ClientDataTableProps<T>) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState<number>(() => {
    const v = readLocal<number>(`pageSize.${props.tableId}`, props.defaultPageSize ?? 25);
    return (PAGE_SIZES as readonly number[]).includes(v) ? v : 25;
  });
  const columnChoice = useColumnChoice(props.tableId, props.columns);
  const { hidden, toggle } = columnChoice;

  const filtered = useMemo(() => {
    const q = search.trim().toLowerCase();
    if (!q) return props.rows;
    const text =
      props.searchText ??
      ((row: T) =>
        Object.values(row as Record<string, unknown>)
          .filter((v) => typeof v === 'string' || typeof v === 'number')
          .join(' '));
    return props.rows.filter((r) => text(r).toLowerCase().includes(q));
  }, [props.rows, props.searchText, search]);

  const totalPages = Math.max(1, Math.ceil(filtered.length / pageSize));
  const current = Math.min(page, totalPages);
  const visibleRows = filtered.slice((current - 1) * pageSize, current * pageSize);

  const setPageSize = (n: number) => {
    setPageSizeState(n);
    setPage(1);
    writeLocal(`pageSize.${props.tableId}`, n);
  };

  return (
    <>
      <Group justify="space-between" mb="sm" wrap="wrap">
        <TextInput
          w={280}
          leftSection={<IconSearch size={16} />}
          placeholder={props.searchPlaceholder}
          aria-label={props.searchPlaceholder}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          data-testid="client-search"
        />
        <Group gap="xs">
          {props.exportList && (
            <ExportButton list={props.exportList} query={search.trim() ? { name: search.trim() } : {}} columns={columnChoice.visible.map((c) => c.key)} />
          )}
          <ColumnChooser columns={props.columns} hidden={hidden} onToggle={toggle} />
        </Group>
      </Group>
      <DataTable
        tableId={props.tableId}
        columns={props.columns}
        rows={visibleRows}
        rowKey={props.rowKey}
        loading={props.loading}
        failed={props.failed}
        onRetry={props.onRetry}
        onRowClick={props.onRowClick}
        withColumnChooser={false}
        columnChoice={columnChoice}
      />
      {!(props.failed && props.rows.length === 0) && (
        <Group justify="space-between" mt="sm" wrap="wrap" gap="sm">
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('table.rowsPerPage')}
            </Text>
            <PageSize value={pageSize} onChange={setPageSize} />
            <Text size="sm" c="dimmed" data-testid="total-records">
              {t('table.totalRows', { count: filtered.length })}
            </Text>
          </Group>
          <Group gap="xs">
            <Button size="xs" variant="default" leftSection={<IconChevronLeft size={14} />} disabled={current <= 1} onClick={() => setPage(current - 1)}>
              {t('table.previous')}
            </Button>
            <Text size="sm" data-testid="page-of">
              {t('table.pageOf', { page: current, total: totalPages })}
            </Text>
            <Button
              size="xs"
              variant="default"
              rightSection={<IconChevronRight size={14} />}
              disabled={current >= totalPages}
              onClick={() => setPage(current + 1)}
            >
              {t('table.next')}
            </Button>
          </Group>
        </Group>
      )}
    </>
  );
}
