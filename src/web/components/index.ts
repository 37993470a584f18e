// The list-screen kit. See README.md in this folder for the API and an example page.
export { ListScreen, ListTextFilter, ListMultiFilter, type ListScreenProps } from './list-screen';
export { DataTable, TablePager, ColumnChooser, useColumnChoice, type Column, type DataTableProps, type TablePagination } from './data-table';
export { ClientDataTable, type ClientDataTableProps } from './client-data-table';
export { ChipsMultiSelect, type ChipOption } from './chips-multi-select';
export { RecordDrawer, countFieldErrors, type DrawerTab, type RecordDrawerProps } from './record-drawer';
export { NoteLogs, activityQueryKey } from './note-logs';
export { useListQueryState, type ListQueryState, type FilterSpec, type FilterValues, type PageSize } from './use-list-query-state';
export { useServerList, type ServerListOptions } from './use-server-list';
export { useDebouncedValue } from './use-debounced-value';
export { notifySuccess, notifyError } from './notify';
export { confirmAction, confirmDelete, type ConfirmOptions } from './confirm';
export { AsyncSelect, AsyncMultiSelect, ADD_NEW_VALUE, rememberOption, type SelectOption, type AsyncSelectProps, type AsyncMultiSelectProps } from './async-select';
export { RichTextField, type RichTextFieldProps } from './rich-text-field';
export { formatMoney, formatMinorMoney, useMoney } from './money';
export { EmptyState } from './empty-state';
export { tablePagination } from './table-pagination';
export { LineItemsTable, DocumentSummary, liveTotals, toEngineLine, type ItemSelectProps, type LineItemValue, type LineItemsTableProps, type TaxOption } from './line-items';
