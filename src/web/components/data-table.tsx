import { cloneElement, useState, type ReactNode } from 'react';
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Center,
  ComboboxChevron,
  Group,
  Loader,
  LoadingOverlay,
  Pagination,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconColumns3, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Pagination as PaginationInfo } from '../../shared/pagination';
import { readLocal, writeLocal } from '../lib/local-store';
import { Deferred, openWhenReady } from './deferred-controls';

export interface Column<T> {
  /** Stable id (also the key remembered by the column chooser). */
  key: string;
  header: ReactNode;
  /** Cell content; defaults to `row[key]`. */
  render?: (row: T) => ReactNode;
  /** false: always shown and absent from the column chooser. Default true. */
  hideable?: boolean;
  /** Hidden until the user picks it in the column chooser; 'phone': shown by default on wider screens only. */
  defaultHidden?: boolean | 'phone';
  width?: number | string;
  align?: 'left' | 'center' | 'right';
  /** Kept on one line (ids, dates: "WO-0012" or "09 Mar 2026, 06:05 PM" never break). */
  nowrap?: boolean;
}

export interface TablePagination extends PaginationInfo {
  pageSize: number;
  onPageChange(page: number): void;
  onPageSizeChange(size: number): void;
}

export interface DataTableProps<T> {
  /** Remembers the column choice under this id in localStorage. */
  tableId: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  loading?: boolean;
  onRowClick?: (row: T) => void;
  /** Server paging footer (rows-per-page 10/25/50/100 and pages). */
  pagination?: TablePagination;
  /** Shown instead of "No results" when there are no rows. */
  emptyText?: ReactNode;
  /**
   * The last load failed: in place of "No results" the table says so with a Retry button; rows still shown
   * (from an earlier load) are marked as possibly out of date. The footer's count is left out.
   */
  failed?: boolean;
  onRetry?: () => void;
  /** Render the column chooser somewhere else (e.g. the ListScreen toolbar): pass false here. Default true. */
  withColumnChooser?: boolean;
  minWidth?: number;
  /** A column choice owned by the caller (useColumnChoice), when the chooser is rendered elsewhere. */
  columnChoice?: ReturnType<typeof useColumnChoice<T>>;
}

/** Below Mantine's `sm` breakpoint (48em): a phone held upright. */
const isPhoneWidth = () => typeof window !== 'undefined' && !!window.matchMedia?.('(max-width: 47.99em)').matches;

/** Which columns of a table are shown, remembered in localStorage per table id. */
export function useColumnChoice<T>(tableId: string, columns: Column<T>[]) {
  const [hidden, setHidden] = useState<string[]>(
    () =>
      readLocal<string[] | null>(`columns.${tableId}`, null) ??
      columns.filter((c) => c.defaultHidden === true || (c.defaultHidden === 'phone' && isPhoneWidth())).map((c) => c.key),
  );
  const toggle = (key: string) => {
    const next = hidden.includes(key) ? hidden.filter((k) => k !== key) : [...hidden, key];
    setHidden(next);
    writeLocal(`columns.${tableId}`, next);
  };
  const visible = columns.filter((c) => c.hideable === false || !hidden.includes(c.key));
  return { hidden, toggle, visible };
}

export function ColumnChooser<T>({ columns, hidden, onToggle }: { columns: Column<T>[]; hidden: string[]; onToggle(key: string): void }) {
  const { t } = useTranslation();
  const target = (
    <ActionIcon variant="default" size="lg" aria-label={t('table.columns')} data-testid="column-chooser">
      <IconColumns3 size={18} />
    </ActionIcon>
  );
  // the menu comes with the interactive controls (deferred-controls.tsx); a click before opens it once there
  return (
    <Deferred placeholder={cloneElement(target, { onClick: openWhenReady })}>
      {(c) => <c.ColumnChooserMenu columns={columns} hidden={hidden} onToggle={onToggle} target={target} />}
    </Deferred>
  );
}

/**
 * A cell's content. Text is isolated (<bdi>): a Latin name or a number in an Arabic page keeps its own order
 * ("Acme Manufacturing Co", "+966 5…"), not one reordered by the page's direction.
 */
function cellValue<T>(row: T, col: Column<T>): ReactNode {
  const v = col.render ? col.render(row) : (row as Record<string, unknown>)[col.key];
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'string' || typeof v === 'number') return <bdi>{v}</bdi>;
  return v as ReactNode;
}

/**
 * The rows-per-page select. Its dropdown comes with the interactive controls (deferred-controls.tsx): until then
 * the same input (value and chevron) stands in, and a click or an arrow key opens the select once it is there.
 */
export function PageSize({ value, onChange }: { value: number; onChange(size: number): void }) {
  const { t } = useTranslation();
  return (
    <Deferred
      placeholder={
        <TextInput
          aria-label={t('table.rowsPerPage')}
          aria-haspopup="listbox"
          data-testid="page-size"
          w={80}
          size="xs"
          readOnly
          value={String(value)}
          rightSection={<ComboboxChevron size="xs" />}
          rightSectionPointerEvents="none"
          onClick={openWhenReady}
          onKeyDown={(e) => {
            if (['ArrowDown', 'ArrowUp', 'Enter', ' '].includes(e.key)) openWhenReady(e);
          }}
        />
      }
    >
      {(c) => <c.PageSizeSelect value={value} onChange={onChange} />}
    </Deferred>
  );
}

/** Page-size select and page buttons of a server-paged table. */
export function TablePager({ pagination }: { pagination: TablePagination }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mt="sm" wrap="wrap" gap="sm">
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          {t('table.rowsPerPage')}
        </Text>
        <PageSize value={pagination.pageSize} onChange={pagination.onPageSizeChange} />
        <Text size="sm" c="dimmed" data-testid="total-records">
          {t('table.totalRecords', { count: pagination.totalRecords })}
        </Text>
      </Group>
      <Pagination
        size="sm"
        total={Math.max(1, pagination.totalPages)}
        value={pagination.currentPage}
        onChange={pagination.onPageChange}
        getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })}
      />
    </Group>
  );
}

/**
 * The list table: loading spinner, a "No results" row, clickable rows, a column chooser remembered per
 * table, and (with `pagination`) the server paging footer.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { t } = useTranslation();
  const own = useColumnChoice(props.tableId, props.columns);
  const { hidden, toggle, visible } = props.columnChoice ?? own;
  const { rows, loading, onRowClick, failed } = props;
  const retry = props.onRetry && (
    <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={props.onRetry} loading={loading} data-testid="list-retry">
      {t('table.retry')}
    </Button>
  );
  return (
    <Box data-testid={`table-${props.tableId}`}>
      {failed && rows.length > 0 && (
        <Alert color="orange" variant="light" mb="xs" data-testid="list-stale" title={t('table.staleTitle')}>
          <Group justify="space-between" gap="xs">
            <Text size="sm">{t('table.stale')}</Text>
            {retry}
          </Group>
        </Alert>
      )}
      {props.withColumnChooser !== false && (
        <Group justify="flex-end" mb="xs">
          <ColumnChooser columns={props.columns} hidden={hidden} onToggle={toggle} />
        </Group>
      )}
      <Box pos="relative">
        <LoadingOverlay visible={!!loading && rows.length > 0} zIndex={5} overlayProps={{ blur: 1 }} loaderProps={{ size: 'sm' }} />
        <ScrollArea type="auto">
          <Table striped highlightOnHover={!!onRowClick} verticalSpacing="sm" miw={props.minWidth ?? 500}>
            <Table.Thead>
              <Table.Tr>
                {visible.map((c) => (
                  <Table.Th key={c.key} w={c.width} style={{ textAlign: c.align }}>
                    {c.header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={visible.length}>
                    <Center py="lg">
                      {loading && !failed ? (
                        <Loader size="sm" data-testid="table-loading" />
                      ) : failed ? (
                        <Stack align="center" gap="xs" data-testid="list-failed" role="alert">
                          <Text c="red" fw={500}>
                            {t('table.loadFailed')}
                          </Text>
                          {retry}
                        </Stack>
                      ) : (
                        <Text c="dimmed" data-testid="no-results">
                          {props.emptyText ?? t('table.noResults')}
                        </Text>
                      )}
                    </Center>
                  </Table.Td>
                </Table.Tr>
              )}
              {rows.map((row) => (
                <Table.Tr
                  key={props.rowKey(row)}
                  data-testid="table-row"
                  onClick={onRowClick ? () => onRowClick(row) : undefined}
                  onKeyDown={onRowClick ? (e) => e.key === 'Enter' && onRowClick(row) : undefined}
                  tabIndex={onRowClick ? 0 : undefined}
                  style={onRowClick ? { cursor: 'pointer' } : undefined}
                >
                  {visible.map((c) => (
                    <Table.Td key={c.key} style={{ textAlign: c.align, whiteSpace: c.nowrap ? 'nowrap' : undefined }}>
                      {cellValue(row, c)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Box>
      {props.pagination && !(failed && rows.length === 0) && <TablePager pagination={props.pagination} />}
    </Box>
  );
}
