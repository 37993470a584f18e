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

/**
 * What a list of records with a drawer states once: its name (the DataTable's id and the export list), how a
 * record opens (a row click: that row; Add: null, a new one), the title and the Add label.
 */
export interface RecordListConfig<T> {
  name: string;
  open(row: T | null): void;
  title: ReactNode;
  /** Absent: no Add button (e.g. not a manager). */
  addLabel?: string;
  /** Managers may import this list's records too (the import kind is the name). */
  importable?: boolean;
}

export interface ServerListScreenProps<T> extends Omit<ListScreenProps, 'listState' | 'refreshing' | 'onRefresh' | 'children' | 'title'> {
  /** The answer of useServerList. */
  list: ServerListLike<T>;
  /** The record list's conventions, in place of tableId, exportList, importKind, onRowClick, title, addLabel and onAdd. */
  records?: RecordListConfig<T>;
  /** Default: the records' title. */
  title?: ReactNode;
  /** DataTable's id (remembers the column choice); default: the records' name. */
  tableId?: string;
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
  records,
  tableId = records?.name ?? '',
  columns,
  onRowClick = records?.open,
  rowKey,
  onRefresh,
  children,
  exportList = records?.name,
  importKind = records?.importable ? records.name : undefined,
  actions,
  instead,
  title = records?.title,
  addLabel = records?.addLabel,
  onAdd = records && (() => records.open(null)),
  ...screen
}: ServerListScreenProps<T>) {
  const columnChoice = useColumnChoice(tableId, columns);
  const exportButton = exportList && <ExportButton list={exportList} query={list.state.apiQuery ?? {}} columns={columnChoice.visible.map((c) => c.key)} />;
  const importButton = importKind && <ImportButton kind={importKind} />;
  return (
    <ListScreen
      {...screen}
      title={title}
      addLabel={addLabel}
      onAdd={onAdd}
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
