import type { Pagination } from '../../shared/pagination';
import type { TablePagination } from './data-table';
import type { ListQueryState } from './use-list-query-state';

/** Joins a list's URL state and the server's pagination into DataTable's `pagination` prop. */
export function tablePagination(state: Pick<ListQueryState, 'page' | 'pageSize' | 'setPage' | 'setPageSize'>, pagination?: Pagination): TablePagination {
  return {
    totalRecords: pagination?.totalRecords ?? 0,
    totalPages: pagination?.totalPages ?? 1,
    currentPage: state.page,
    pageSize: state.pageSize,
    onPageChange: state.setPage,
    onPageSizeChange: state.setPageSize,
  };
}
