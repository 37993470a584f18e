import { useState, type ReactNode } from 'react';
import { ActionIcon, Box, Center, Checkbox, Group, Loader, LoadingOverlay, Menu, Pagination, ScrollArea, Select, Table, Text, Tooltip } from '@mantine/core';
import { IconColumns3 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '../../shared/page-sizes';
import type { Pagination as PaginationInfo } from '../../shared/pagination';
import { readLocal, writeLocal } from '../lib/local-store';

export interface Column<T> {
  /** Stable id (also the key remembered by the column chooser). */
  key: string;
  header: ReactNode;
  /** Cell content; defaults to `row[key]`. */
  render?: (row: T) => ReactNode;
  /** false: always shown and absent from the column chooser. Default true. */
  hideable?: boolean;
  /** Hidden until the user picks it in the column chooser. */
  defaultHidden?: boolean;
  width?: number | string;
  align?: 'left' | 'center' | 'right';
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
  /** Render the column chooser somewhere else (e.g. the ListScreen toolbar): pass false here. Default true. */
  withColumnChooser?: boolean;
  minWidth?: number;
  /** A column choice owned by the caller (useColumnChoice), when the chooser is rendered elsewhere. */
  columnChoice?: ReturnType<typeof useColumnChoice<T>>;
}

/** Which columns of a table are shown, remembered in localStorage per table id. */
export function useColumnChoice<T>(tableId: string, columns: Column<T>[]) {
  const [hidden, setHidden] = useState<string[]>(() =>
    readLocal<string[] | null>(`columns.${tableId}`, null) ?? columns.filter((c) => c.defaultHidden).map((c) => c.key),
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
  const hideable = columns.filter((c) => c.hideable !== false);
  const shown = hideable.filter((c) => !hidden.includes(c.key));
  return (
    <Menu closeOnItemClick={false} position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label={t('table.columns')}>
          <ActionIcon variant="default" size="lg" aria-label={t('table.columns')} data-testid="column-chooser">
            <IconColumns3 size={18} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('table.columns')}</Menu.Label>
        {hideable.map((c) => (
          <Menu.Item
            key={c.key}
            onClick={() => onToggle(c.key)}
            // the last visible column stays: a table needs one
            disabled={shown.length === 1 && !hidden.includes(c.key)}
            leftSection={
              // no <label>: a label click would send a second click to its input and toggle twice
              <Checkbox readOnly size="xs" tabIndex={-1} aria-hidden checked={!hidden.includes(c.key)} style={{ pointerEvents: 'none' }} />
            }
          >
            {c.header}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function cellValue<T>(row: T, col: Column<T>): ReactNode {
  if (col.render) return col.render(row);
  const v = (row as Record<string, unknown>)[col.key];
  return v === null || v === undefined || v === '' ? '—' : String(v);
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
        <Select
          aria-label={t('table.rowsPerPage')}
          data-testid="page-size"
          w={80}
          size="xs"
          allowDeselect={false}
          data={PAGE_SIZES.map(String)}
          value={String(pagination.pageSize)}
          onChange={(v) => v && pagination.onPageSizeChange(Number(v))}
          comboboxProps={{ withinPortal: true }}
        />
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
  const { rows, loading, onRowClick } = props;
  return (
    <Box data-testid={`table-${props.tableId}`}>
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
                      {loading ? (
                        <Loader size="sm" data-testid="table-loading" />
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
                    <Table.Td key={c.key} style={{ textAlign: c.align }}>
                      {cellValue(row, c)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Box>
      {props.pagination && <TablePager pagination={props.pagination} />}
    </Box>
  );
}
