import type { ReactNode } from 'react';
import type { Pagination } from '../../shared/pagination';
import { DataTable, useColumnChoice, type Column } from './data-table';
import { ExportButton } from './export-button';
import { ImportButton } from './import-button';
import { ListScreen, type ListScreenProps } from './list-screen';
import { tablePagination } from './table-pagination';
import type { ListQueryState } from './use-list-query-state';

/** What ServerListScreen reads of `useServerList`. */
export interface ServerListLike<T> {
  state: Pick<ListQueryState, 'page' | 'pageSize' | 'setPage' | 'setPageSize' | 'isFiltered' | 'reset'> & Partial<Pick<ListQueryState, 'apiQuery'>>;
  rows: T[];
  pagination?: Pagination;
  loading: boolean;
  /** The last load failed: the table says so, with Retry. */
  failed?: boolean;
  refetch(): unknown;
}

export interface ServerListScreenProps<T> extends Omit<ListScreenProps, 'listState' | 'refreshing' | 'onRefresh' | 'children'> {
  /** The answer of useServerList. */
  list: ServerListLike<T>;
  /** DataTable's id (remembers the column choice). */
  tableId: string;
  columns: Column<T>[];
  onRowClick?: (row: T) => void;
  /** Default: the row's `id`. */
  rowKey?: (row: T) => string | number;
  /** Default: refetch the list. */
  onRefresh?: () => void;
  /** The drawer (rendered after the table). */
  children?: ReactNode;
  /**
   * The list's name for `GET /api/data-transfer/export/{list}` (decision 042): an Export button downloads the
   * list as CSV with the current filters and the visible columns.
   */
  exportList?: string;
  /** The import kind of this list's records: managers get an Import button opening the import wizard. */
  importKind?: string;
  /** Shown instead of the table (e.g. the assets' tree view); the filters and actions stay. */
  instead?: ReactNode;
}

/** A ListScreen over a server-paged list with its DataTable: Refresh, Reset, spinner and paging come from `list`. */
export function ServerListScreen<T>({
  list,
  tableId,
  columns,
  onRowClick,
  rowKey,
  onRefresh,
  children,
  exportList,
  importKind,
  actions,
  instead,
  ...screen
}: ServerListScreenProps<T>) {
  const columnChoice = useColumnChoice(tableId, columns);
  const exportButton = exportList && <ExportButton list={exportList} query={list.state.apiQuery ?? {}} columns={columnChoice.visible.map((c) => c.key)} />;
  const importButton = importKind && <ImportButton kind={importKind} />;
  return (
    <ListScreen
      {...screen}
      actions={
        exportButton || importButton ? (
          <>
            {actions}
            {importButton}
            {exportButton}
          </>
        ) : (
          actions
        )
      }
      onRefresh={onRefresh ?? (() => void list.refetch())}
      refreshing={list.loading}
      listState={list.state}
    >
      {instead ?? (
        <DataTable
          tableId={tableId}
          columns={columns}
          columnChoice={columnChoice}
          rows={list.rows}
          rowKey={rowKey ?? ((r) => (r as { id: number }).id)}
          loading={list.loading}
          failed={list.failed}
          onRetry={() => void list.refetch()}
          onRowClick={onRowClick}
          pagination={tablePagination(list.state, list.pagination)}
        />
      )}
      {children}
    </ListScreen>
  );
}
